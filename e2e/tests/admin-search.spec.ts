import type { APIRequestContext, Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { expect, ownerWithPet, password, randomChip, signIn, test, uniqueEmail } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** A last name no other test's owner has. */
const uniqueWord = () => `Zq${Array.from({ length: 8 }, () => String.fromCharCode(97 + Math.floor(Math.random() * 26))).join('')}`;

/** An owner who signed up with their own phone number, with a chipped pet; not signed in on any page. */
async function ownerWithPhone(request: APIRequestContext) {
  const line = String(Math.floor(Math.random() * 10_000)).padStart(4, '0');
  const owner = { firstName: 'Morgan', lastName: uniqueWord(), email: uniqueEmail(), password, phoneNumber: `(314) 555-${line}` };
  const signedUp = await request.post('/api/v2/Users/signup', { data: owner });
  expect(signedUp.status()).toBe(200);
  const token: string = (await signedUp.json()).result.token;
  const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
  const chip = randomChip();
  const created = await request.post('/api/v2/Pet/create-pet', {
    headers: { authorization: `Bearer ${token}` },
    data: { name: 'Pickles', speciesId: data.species[0].id, chipId: chip, confirmChip: chip, chipTypeId: data.brands[0].id },
  });
  expect(created.status()).toBe(200);
  return { ...owner, line, chip, petId: (await created.json()).result.pet.id as number };
}

async function signInAsAdmin(page: Page) {
  await page.goto('/sign-in');
  await signIn(page, admin.email, admin.password);
  await expect(page).toHaveURL(/\/admin-dashboard$/);
}

/** Runs the action and waits for the app to go to the pet's admin page (built beside this search), wherever it goes after. */
async function expectToOpenPet(page: Page, petId: number, action: () => Promise<void>) {
  const opened = page.waitForURL(new RegExp(`/admin/pet/${petId}$`));
  await action();
  await opened;
}

test.describe('[ADMIN][SEARCH]', () => {
  test('an administrator finds a pet by chip, and its owner by a phone typed another way', async ({ page, request }) => {
    const owner = await ownerWithPhone(request);
    await signInAsAdmin(page);
    await page.getByRole('link', { name: 'Search', exact: true }).click();
    await expect(page).toHaveURL(/\/admin-search$/);
    await expect(page.getByRole('heading', { name: 'Veterinary clients' })).toBeVisible();
    await expect(page.getByLabel('Practice or client name')).toBeDisabled();

    // The chip and card buttons wait for something to search.
    const chipButton = page.getByRole('button', { name: 'Search pet microchip' });
    await expect(chipButton).toBeDisabled();
    await expect(page.getByRole('button', { name: 'Search card payments' })).toBeDisabled();
    await page.getByRole('button', { name: 'Search accounts' }).click();
    await expect(page.getByText('Enter a name, pet name, phone number or email.')).toBeVisible();

    await page.getByLabel('Microchip number').fill(randomChip('981'));
    await chipButton.click();
    await expect(page.getByText('No Records found', { exact: true })).toBeVisible();
    await shot(page, 'admin-search-desktop');

    // Printed with spaces, as a scanner shows it; Enter searches too.
    const spaced = `${owner.chip.slice(0, 3)} ${owner.chip.slice(3, 9)} ${owner.chip.slice(9)}`;
    await page.getByLabel('Microchip number').fill(spaced);
    await expectToOpenPet(page, owner.petId, () => page.getByLabel('Microchip number').press('Enter'));

    // Accounts by phone, typed with dots where the owner typed brackets and a dash.
    await page.goto('/admin-search');
    await page.getByLabel('Name, pet name, phone or email').fill(`+1 314.555.${owner.line}`);
    await page.getByRole('button', { name: 'Search accounts' }).click();
    await expect(page).toHaveURL(/\/admin\/users\/%2B1%20314\.555\.\d{4}$/);
    const table = page.getByRole('table', { name: 'Accounts found' });
    const row = table.getByRole('row', { name: `Open Pickles of Morgan ${owner.lastName}` });
    await expect(row).toContainText(owner.email);
    await expect(row).toContainText(`(314) 555 - ${owner.line}`);
    await expect(row).toContainText(owner.chip);
    for (const column of ['Owner Name', 'Email', 'Address', 'Phone Number', 'Pet Name', 'Chip ID']) {
      await expect(table.getByRole('columnheader', { name: column })).toBeVisible();
    }
    // The total shows even when one page holds every row.
    await expect(page.getByText('1–1 of 1', { exact: true })).toBeVisible();
    // The owners' "Need help?" panel is not the administrators'.
    await expect(page.getByRole('complementary', { name: 'Support' })).toHaveCount(0);
    await expect(page.getByText('Need help?')).toHaveCount(0);
    await shot(page, 'admin-users-desktop');

    // At phone width each row is a card, labelled by its columns.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toBeVisible();
    const scroll = await page.evaluate(() => document.documentElement.scrollWidth);
    expect(scroll).toBeLessThanOrEqual(390);
    await shot(page, 'admin-users-390');
    await page.goto('/admin-search');
    await shot(page, 'admin-search-390');
    await page.setViewportSize({ width: 1280, height: 800 });

    await page.goto(`/admin/users/${encodeURIComponent(owner.lastName.toUpperCase())}`);
    await expectToOpenPet(page, owner.petId, () => page.getByRole('row', { name: `Open Pickles of Morgan ${owner.lastName}` }).click());
  });

  test('an administrator finds a portal checkout paid with 4242 4242 4242 4242 by its last 4 digits', async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    await page.goto(`/client/pet/checkout/${petId}`);
    await page.getByRole('button', { name: 'Choose Yearly Protection' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await page.getByLabel('Name on card').fill('Avery Card');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $19.95' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    await page.goto('/sign-out');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeNull();

    await signInAsAdmin(page);
    await page.goto('/admin-search');
    const card = page.getByLabel('Card last 4 digits');
    await card.fill('42a42');
    await expect(card).toHaveValue('4242');
    await page.getByRole('button', { name: 'Search card payments' }).click();
    await expect(page).toHaveURL(/\/admin\/stripe-search\/4242$/);
    const table = page.getByRole('table', { name: 'Card payments found' });
    const row = table.getByRole('row').filter({ hasText: owner.email });
    await expect(row).toContainText('•••• 4242');
    await expect(row).toContainText('Avery Card');
    await expect(row).toContainText('19.95');
    await expect(row).toContainText('USD');
    await expect(row).toContainText('Paid');
    await expect(row).toContainText('Yearly Protection');
    for (const column of ['Card Last 4 Digits', 'Created', 'Name', 'Email', 'Pet and product', 'Amount', 'Currency', 'Payment Status']) {
      await expect(table.getByRole('columnheader', { name: column, exact: true })).toBeVisible();
    }
    await shot(page, 'card-payments-desktop');
    // The pet paid for opens its record.
    await expect(row.getByRole('link', { name: 'Juniper' })).toHaveAttribute('href', `/admin/pet/${petId}`);
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(row).toBeVisible();
    await shot(page, 'card-payments-390');

    await page.setViewportSize({ width: 1280, height: 800 });
    await row.getByRole('link', { name: 'Juniper' }).click();
    await expect(page).toHaveURL(new RegExp(`/admin/pet/${petId}$`));

    await page.goto('/admin/stripe-search/0007');
    await expect(page.getByText('No records found', { exact: true })).toBeVisible();
  });
});

