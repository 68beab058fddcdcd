import type { Page } from '@playwright/test';
import { choose, createOwner, expect, password, randomChip, signIn, test, uniqueEmail, type Owner } from './fixtures';
async function fillPet(page: Page, pet: { name: string; chip?: string }) {
  await page.getByLabel('Pet Name').fill(pet.name);
  await choose(page, 'Species', 'Dog');
  const breeds = page.getByRole('combobox', { name: 'Breeds' });
  await breeds.click();
  await page.getByRole('option', { name: 'Labrador Retriever' }).click();
  // Tab closes the list and keeps the choice (Escape would clear it).
  await breeds.press('Tab');
  await expect(page.getByRole('button', { name: 'Labrador Retriever', exact: true })).toBeVisible();
  await choose(page, 'Sex', 'Female');
  await page.getByLabel('Date of Birth').fill('2021-04-12');
  await page.getByLabel('Approximate Weight (lbs)').fill('48');
  await page.getByLabel('Colour and markings').fill('Yellow, white chest');
  if (pet.chip) {
    await page.getByLabel('Microchip ID', { exact: true }).fill(pet.chip);
    await page.getByLabel('Confirm Microchip ID').fill(pet.chip);
    await choose(page, 'Microchip Brand', 'HomeAgain');
  }
}

async function signedIn(page: Page, owner: Owner) {
  await page.goto('/sign-in');
  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
}

test.describe('[PETS]', () => {
  test('a new owner signs up and registers a chipped pet, landing on the plan page', async ({ page }) => {
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(uniqueEmail('newpet'));
    await page.getByRole('button', { name: 'Sign up with email' }).click();
    await page.getByLabel('First Name').fill('Dana');
    await page.getByLabel('Last Name').fill('Whitfield');
    await page.getByLabel('Mobile Phone').fill('(503) 555-0142');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue to pet info' }).click();

    await expect(page).toHaveURL(/\/pet-register$/);
    await fillPet(page, { name: 'Maple', chip: randomChip() });
    await page.screenshot({ path: test.info().outputPath('registration-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Continue to membership selection' }).click();
    await expect(page).toHaveURL(/\/pet-subscription\/\d+$/);
  });

  test('an owner registers a pet without a chip through the No microchip? dialog', async ({ page, request }) => {
    const owner = await createOwner(request);
    await signedIn(page, owner);
    const visited: string[] = [];
    page.on('framenavigated', (frame) => {
      if (frame === page.mainFrame()) visited.push(new URL(frame.url()).pathname);
    });
    await page.goto('/client/pet/add');
    await fillPet(page, { name: 'Pickles' });
    await page.getByRole('button', { name: 'Save' }).click();
    const dialog = page.getByRole('dialog', { name: 'No microchip?' });
    await expect(dialog).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('no-microchip.png') });
    await expect(dialog.getByRole('button', { name: 'Register Pet Microchip' })).toBeVisible();
    await dialog.getByRole('button', { name: 'Send Lost Pet Alert' }).click();
    await expect.poll(() => visited.some((path) => /^\/client\/add-alert\/\d+$/.test(path))).toBe(true);

    const pets = await request.get('/api/v2/pet/user-pets', { headers: { authorization: `Bearer ${owner.token}` } });
    expect((await pets.json()).result).toEqual([expect.objectContaining({ name: 'Pickles', chips: [] })]);
  });

  test('the registration form refuses a chip already on another pet, on the chip field', async ({ page, request }) => {
    const first = await createOwner(request);
    const chip = randomChip();
    const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    const created = await request.post('/api/v2/Pet/create-pet', {
      headers: { authorization: `Bearer ${first.token}` },
      data: { name: 'Taken', speciesId: data.species[0].id, chipId: chip, confirmChip: chip, chipTypeId: data.brands[0].id },
    });
    expect(created.status()).toBe(200);

    const owner = await createOwner(request);
    await signedIn(page, owner);
    await page.goto('/client/pet/add');
    await fillPet(page, { name: 'Copycat', chip });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('This microchip id is already registered to another pet.')).toBeVisible();
    await expect(page).toHaveURL(/\/client\/pet\/add$/);
  });

  test('an owner edits a pet and sees the change on the dashboard', async ({ page, request }) => {
    const owner = await createOwner(request);
    await signedIn(page, owner);
    await page.goto('/client/pet/add');
    await fillPet(page, { name: 'Biscuit', chip: randomChip() });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page).toHaveURL(/\/client\/pet\/checkout\/\d+$/);
    const petId = page.url().split('/').at(-1);

    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByText('Not Registered')).toBeVisible();
    await expect(page.getByLabel('Pet Name')).toBeDisabled();
    await expect(page.getByLabel('Colour and markings')).toHaveValue('Yellow, white chest');
    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('Colour and markings').fill('Yellow, white blaze');
    await page.getByLabel('Pet Name').fill('Bo');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The Pet name must be at least 3 characters')).toBeVisible();
    await page.getByLabel('Pet Name').fill('Biscuit Jr');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Record saved successfully')).toBeVisible();
    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByLabel('Colour and markings')).toHaveValue('Yellow, white blaze');
    await page.screenshot({ path: '/tmp/colour-edit.png', fullPage: true });

    await page.goto('/client/dashboard');
    const tile = page.getByRole('list', { name: 'Pets' }).getByRole('link', { name: /Biscuit Jr/ });
    await expect(tile).toBeVisible();
    await expect(tile).toHaveAccessibleName(/Registration Incomplete/);
    await tile.click();
    await expect(page).toHaveURL(new RegExp(`/client/pet/checkout/${petId}$`));
  });

  test('an owner adds, edits and deletes a backup contact', async ({ page, request }) => {
    const owner = await createOwner(request);
    await signedIn(page, owner);
    await page.goto('/client/dashboard');
    await page.getByRole('button', { name: 'Add a contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a contact' });
    await dialog.getByLabel('Name', { exact: true }).fill('R');
    await dialog.getByLabel('Phone Number').fill('5035550199');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(dialog.getByText('The Name must be at least 2 characters')).toBeVisible();
    await dialog.getByLabel('Name', { exact: true }).fill('Grandma Rose');
    await dialog.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Record saved successfully')).toBeVisible();
    await expect(page.getByText('(503) 555 - 0199')).toBeVisible();

    await page.getByRole('button', { name: 'Edit Grandma Rose' }).click();
    const edit = page.getByRole('dialog', { name: 'Edit contact' });
    await edit.getByLabel('Phone Number').fill('(503) 555-0100');
    await edit.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('(503) 555 - 0100')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('dashboard-with-contact.png'), fullPage: true });

    await page.getByRole('button', { name: 'Delete Grandma Rose' }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: 'Are you sure you want to delete this record?' });
    await confirm.getByRole('button', { name: 'Confirm' }).click();
    await expect(page.getByText('Record deleted successfully')).toBeVisible();
    await expect(page.getByText('Grandma Rose')).toHaveCount(0);
  });

  test('an owner typing a Save This Life chip sees the coupon banner', async ({ page, request }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const owner = await createOwner(request);
    await signedIn(page, owner);
    await page.goto('/client/pet/add');
    await page.getByLabel('Microchip ID', { exact: true }).fill('900164000123456');
    await expect(page.getByText(/75% off/)).toBeVisible();
    await expect(page.getByText('STL2025')).toBeVisible();
    await page.getByRole('button', { name: 'Copy code' }).click();
    await expect(page.getByText('Coupon code copied')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('coupon-banner.png'), fullPage: true });
    await page.getByLabel('Microchip ID', { exact: true }).fill('985000000123456');
    await expect(page.getByText('STL2025')).toHaveCount(0);
  });

  test('[SHELL]: the navigation and support panel run the full height of a long page', async ({ page, request }) => {
    const owner = await createOwner(request);
    const headers = { authorization: `Bearer ${owner.token}` };
    const { species } = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    for (let i = 1; i <= 12; i++) {
      const created = await request.post('/api/v2/Pet/create-pet', { headers, data: { name: `Pet ${i}`, speciesId: species[0].id } });
      expect(created.status()).toBe(200);
    }
    await page.setViewportSize({ width: 1366, height: 768 });
    await signedIn(page, owner);
    await page.goto('/client/pet');
    await expect(page.getByText('Pet 12', { exact: true })).toBeVisible();

    const columns = () =>
      page.evaluate(() => ({
        page: document.documentElement.scrollHeight,
        bottoms: ['nav[aria-label="Main"]', 'aside[aria-label="Support"]'].map((selector) => {
          const panel = document.querySelector(selector)!.closest('.MuiDrawer-paper')!;
          return Math.round(panel.getBoundingClientRect().bottom + window.scrollY);
        }),
      }));
    const { page: height, bottoms } = await columns();
    expect(height).toBeGreaterThan(768 * 2);
    expect(bottoms).toEqual([height, height]);
    await page.screenshot({ path: test.info().outputPath('long-page.png'), fullPage: true });

    // Scrolled to the end, the menu and the support line are still in view.
    await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
    await expect(page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Dashboard' })).toBeInViewport();
    await expect(page.getByRole('complementary', { name: 'Support' }).getByRole('link', { name: 'Terms of Service' })).toBeInViewport();
  });
});
