import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { choose, createOwner, expect, lastMailTo, mailsTitled, ownerWithPet, payThroughApi, petPhoto, signIn, test, type Owner } from './fixtures';

async function signedIn(page: Page, owner: Owner) {
  await page.goto('/sign-in');
  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
}

/** Yesterday at 3 PM, as a date-and-time input takes it (the browser and this process share the time zone). */
function yesterdayAtThree(): string {
  const day = new Date(Date.now() - 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${day.getFullYear()}-${pad(day.getMonth() + 1)}-${pad(day.getDate())}T15:00`;
}

async function apiResult<T>(request: APIRequestContext, owner: Owner, path: string): Promise<T> {
  const response = await request.get(`/api/v2/${path}`, { headers: { authorization: `Bearer ${owner.token}` } });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result as T;
}

/** The value shown under a statistic's label in a pet's analytics. */
const stat = (analytics: Locator, label: string) =>
  analytics.getByRole('term').filter({ hasText: label }).locator('xpath=following-sibling::dd[1]');

test.describe('[ALERTS]', () => {
  test('an owner alerts about a pet without a chip, pays, follows the analytics, and marks it found; finders see it', async ({
    page,
    request,
    browser,
  }) => {
    test.slow();
    const owner = await createOwner(request, 'Robin');
    await signedIn(page, owner);

    // Registration without a chip: the No microchip? dialog leads to the alert form.
    await page.goto('/client/pet/add');
    await page.getByLabel('Pet Name').fill('Marmalade');
    await choose(page, 'Species', 'Dog');
    const breeds = page.getByRole('combobox', { name: 'Breeds' });
    await breeds.click();
    await page.getByRole('option', { name: 'Labrador Retriever' }).click();
    await breeds.press('Tab');
    await choose(page, 'Sex', 'Female');
    await page.getByLabel('Date of Birth').fill('2020-06-01');
    await page.getByLabel('Choose a photo').setInputFiles(await petPhoto(page));
    await expect(page.getByRole('img', { name: 'Pet photo preview' })).toHaveAttribute('src', /^data:image\/png/);
    await page.getByLabel('Share Contact Info when my pet is lost').check();
    await page.getByRole('button', { name: 'Save' }).click();
    await page.getByRole('dialog', { name: 'No microchip?' }).getByRole('button', { name: 'Send Lost Pet Alert' }).click();

    await expect(page).toHaveURL(/\/client\/add-alert\/\d+$/);
    const petId = Number(page.url().split('/').at(-1));
    await expect(page.getByRole('heading', { level: 1, name: 'Lost Pet Alert' })).toBeVisible();
    // The pet's details come filled in from the registration.
    await expect(page.getByLabel('Pet Name')).toHaveValue('Marmalade');
    await expect(page.getByRole('button', { name: 'Labrador Retriever', exact: true })).toBeVisible();
    await expect(page.getByRole('img', { name: 'Pet photo preview' })).toHaveAttribute('src', /\/api\/v2\/pet\/pet-images\//i);
    // The price is told before the form is filled: no protection, so the alert is paid for.
    await expect(page.getByRole('complementary', { name: 'How the alert works' }).getByText('Price: $14.99')).toBeVisible();

    await page.getByLabel('Missing Date').fill(yesterdayAtThree());
    await page.getByLabel('Last Seen ZIP Code').fill('63101');
    await expect(page.getByText('Saint Louis, MO 63101')).toBeVisible();
    const description = 'Slipped her collar near the riverfront at dusk. Friendly but shy; answers to Marmie.';
    await page.getByLabel('Incident Description').fill(description);
    await expect(page.getByText(`${description.length}/200`)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('alert-form.png'), fullPage: true });
    await page.getByRole('button', { name: 'Send Lost Pet Alert' }).click();

    // No protection plan: the alert is paid for on the portal's checkout.
    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await expect(page.getByText('Lost Pet Alert', { exact: true })).toBeVisible();
    await page.getByLabel('Name on card').fill('Robin Rivera');
    await page.getByLabel('Card number').fill('4242 4242 4242 4242');
    await page.getByLabel('Expiry (MM/YY)').fill('12/39');
    await page.getByLabel('CVC').fill('123');
    await page.getByRole('button', { name: 'Pay $14.99' }).click();

    await expect(page).toHaveURL(new RegExp(`/client/add-alert/${petId}/sent`));
    await expect(page.getByRole('heading', { level: 1, name: 'Lost Pet Alert Sent' })).toBeVisible();
    const reached = page.getByText(/We are e-mailing \d+ pet-care professionals? within 50 miles of Saint Louis, MO 63101 about Marmalade\./);
    await expect(reached).toBeVisible();
    const recipients = Number((await reached.textContent())!.match(/e-mailing (\d+)/)![1]);
    expect(recipients).toBeGreaterThan(0);
    await page.screenshot({ path: test.info().outputPath('alert-sent.png'), fullPage: true });
    expect((await lastMailTo(owner.email, 'Your lost pet alert for Marmalade was sent')).text).toContain(
      `${recipients === 1 ? '1 pet-care professional' : `${recipients} pet-care professionals`} within 50 miles of Saint Louis, MO 63101`,
    );

    // Analytics: counted and delivered once the outbox has sent; opened once a recipient's mail app loads the pixel.
    await page.getByRole('link', { name: 'View Analytics' }).click();
    await expect(page).toHaveURL(/\/client\/add-alert$/);
    const analytics = page.getByRole('list', { name: 'Alerts sent' }).getByRole('listitem').filter({ hasText: 'Marmalade' });
    await expect(analytics.getByText('Last seen near Saint Louis, MO 63101')).toBeVisible();
    await expect(analytics.getByText(`to ${recipients} professional`)).toBeVisible();
    await expect(page.getByRole('list', { name: 'Pets to alert about' })).toHaveCount(0);
    await expect(stat(analytics, 'Counted')).toHaveText(String(recipients));
    await expect(stat(analytics, 'Opened')).toHaveText('[loading]');
    await expect(stat(analytics, 'Delivered')).toHaveText(/^[1-9]\d*$/, { timeout: 30_000 });

    const alertMails = await mailsTitled('Lost dog: Marmalade, last seen near Saint Louis, MO 63101');
    expect(alertMails[0]!.text).toContain(description);
    const pixel = String(alertMails[0]!.html).match(/src="([^"]+\/email\/open\/[^"]+\.gif)"/)![1]!;
    const opened = await request.get(new URL(pixel).pathname, { headers: { 'user-agent': 'Mozilla/5.0 (Macintosh) AppleWebKit/605.1.15 Mail' } });
    expect(opened.status()).toBe(200);
    await expect(stat(analytics, 'Opened')).toHaveText('1', { timeout: 30_000 });
    await expect(stat(analytics, 'Bounced')).toHaveText('0');
    await page.screenshot({ path: test.info().outputPath('alert-analytics.png'), fullPage: true });

    // A finder opens the pet's public profile, signed out.
    const { publicId } = await apiResult<{ publicId: string }>(request, owner, `Pet/${petId}`);
    const finderContext = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    const finder = await finderContext.newPage();
    await finder.goto(`/pet-profiles/${publicId}`);
    await expect(finder.getByRole('heading', { level: 1, name: 'Marmalade' })).toBeVisible();
    await expect(finder.getByText('Last Seen in Saint Louis, MO 63101, USA')).toBeVisible();
    await expect(finder.getByRole('region', { name: 'Lost time' })).toContainText(/3PM \w+day \w{3} \d{1,2}(st|nd|rd|th), \d{4}/);
    const contact = finder.getByRole('region', { name: 'Contact' });
    await expect(contact.getByRole('link', { name: 'Email the owner' })).toHaveAttribute('href', `mailto:${owner.email}`);
    await contact.getByRole('button', { name: 'Phone numbers' }).click();
    await expect(finder.getByRole('menuitem', { name: /Owner's Number/ })).toBeVisible();
    await finder.keyboard.press('Escape');
    await finder.screenshot({ path: test.info().outputPath('public-profile-missing.png'), fullPage: true });

    // A second tab still shows the alert after the first has ended it.
    const staleTab = await page.context().newPage();
    await staleTab.goto('/client/add-alert');
    const staleAnalytics = staleTab.getByRole('list', { name: 'Alerts sent' }).getByRole('listitem').filter({ hasText: 'Marmalade' });
    await expect(staleAnalytics).toBeVisible();

    await analytics.getByRole('button', { name: 'Mark as found' }).click();
    const confirm = page.getByRole('dialog', { name: 'Is Marmalade home?' });
    await expect(confirm).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('mark-as-found.png') });
    await confirm.getByRole('button', { name: 'Mark as found' }).click();
    await expect(page.getByText('Pet marked as found')).toBeVisible();
    await expect(page.getByText('No alerts out')).toBeVisible();
    await expect(page.getByRole('list', { name: 'Pets to alert about' }).getByText('Marmalade')).toBeVisible();

    // A tab behind another runs no animation frames, so its toast would never finish entering.
    await staleTab.bringToFront();
    await staleAnalytics.getByRole('button', { name: 'Mark as found' }).click();
    await staleTab.getByRole('dialog', { name: 'Is Marmalade home?' }).getByRole('button', { name: 'Mark as found' }).click();
    await expect(staleTab.getByText('No Alerts found for pet')).toBeVisible();
    await expect(staleTab.getByText('No alerts out')).toBeVisible();
    await staleTab.close();

    await finder.reload();
    await expect(finder.getByRole('region', { name: 'Found' })).toBeVisible();
    await expect(finder.getByRole('region', { name: 'Contact' })).toHaveCount(0);
    await expect(finder.getByRole('region', { name: 'Lost time' })).toHaveCount(0);
    await expect(finder.getByText(/Last Seen in/)).toHaveCount(0);
    await finder.screenshot({ path: test.info().outputPath('public-profile-found.png'), fullPage: true });
    await finderContext.close();
  });

  test("a protected pet's alert is free, said on the pet list and before the form is filled", async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    await payThroughApi(request, owner, petId, false);
    const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    const created = await request.post('/api/v2/Pet/create-pet', {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: 'Pepper', speciesId: data.species[0].id, chipId: '', confirmChip: '', chipTypeId: null },
    });
    expect(created.status(), await created.text()).toBe(200);
    const unprotectedId: number = (await created.json()).result.pet.id;

    await page.goto('/client/add-alert');
    const choice = page.getByRole('list', { name: 'Pets to alert about' });
    await expect(page.getByText('An alert costs $14.99, and is free for a pet with active protection.')).toBeVisible();
    await expect(choice.getByRole('listitem').filter({ hasText: 'Juniper' }).getByText('Free alert: protected')).toBeVisible();
    await expect(choice.getByRole('listitem').filter({ hasText: 'Pepper' })).toBeVisible();
    await expect(choice.getByRole('listitem').filter({ hasText: 'Pepper' }).getByText('Free alert: protected')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('alert-choice-free.png'), fullPage: true });

    await page.goto(`/client/add-alert/${petId}`);
    const howItWorks = page.getByRole('complementary', { name: 'How the alert works' });
    await expect(howItWorks.getByText('Free: Juniper is protected')).toBeVisible();
    await expect(howItWorks.getByText('$14.99')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('alert-form-free.png'), fullPage: true });
    await page.goto(`/client/add-alert/${unprotectedId}`);
    await expect(page.getByRole('complementary', { name: 'How the alert works' }).getByText('Price: $14.99')).toBeVisible();
  });

  test('the lost alert form shows every rule of spec 5 and sends nothing until they are met', async ({ page, request }) => {
    const owner = await createOwner(request, 'Sasha');
    const headers = { authorization: `Bearer ${owner.token}` };
    const { species } = await apiResult<{ species: { id: number; name: string }[] }>(request, owner, 'utilities/static-data');
    const created = await request.post('/api/v2/Pet/create-pet', {
      headers,
      data: { name: 'Bo', speciesId: species.find((s) => s.name === 'Cat')!.id },
    });
    expect(created.status()).toBe(200);
    const petId: number = (await created.json()).result.pet.id;

    await signedIn(page, owner);
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Lost Pet Alerts' }).click();
    await expect(page.getByText('No alerts out')).toBeVisible();
    const choice = page.getByRole('list', { name: 'Pets to alert about' }).getByRole('listitem').filter({ hasText: 'Bo' });
    await choice.getByRole('link', { name: 'Select and continue' }).click();
    await expect(page).toHaveURL(new RegExp(`/client/add-alert/${petId}$`));

    // Without a ZIP code in the profile, there is no home ZIP to use.
    const homeSwitch = page.getByRole('switch', { name: 'Home ZIP is where my pet was last seen' });
    await expect(homeSwitch).toBeDisabled();

    await page.getByRole('button', { name: 'Send Lost Pet Alert' }).click();
    // The send attempt's toast first: it hides after the spec's 2 seconds.
    await expect(page.getByText('Pet image is required', { exact: true })).toBeVisible();
    for (const message of [
      'The Pet name must be at least 3 characters',
      'Image is required',
      'Pet Breed(s) is required',
      'Pet Sex is required',
      'Date of Birth is required',
      'Missing date is required',
      'Zipcode is required.',
      'Incident Description is required',
    ]) {
      await expect(page.getByText(message, { exact: true })).toBeVisible();
    }
    await page.screenshot({ path: test.info().outputPath('alert-form-errors.png'), fullPage: true });

    const nextYear = `${new Date().getFullYear() + 1}-01-01T10:00`;
    await page.getByLabel('Missing Date').fill(nextYear);
    await page.getByLabel('Last Seen ZIP Code').fill('00000');
    await page.getByLabel('Incident Description').fill('x'.repeat(201));
    await page.getByLabel('Date of Birth').fill(`${new Date().getFullYear() + 1}-01-01`);
    await page.getByRole('button', { name: 'Send Lost Pet Alert' }).click();
    await expect(page.getByText('The date cannot be in the future')).toHaveCount(2);
    await expect(page.getByText('We could not find this ZIP code. Please check it.')).toBeVisible();
    await expect(page.getByText('Incident Description cannot exceed 200 characters')).toBeVisible();

    // Nothing was saved or sent.
    const pet = await apiResult<{ missingDate: string | null; zipCode: string | null }>(request, owner, `Pet/${petId}`);
    expect(pet).toMatchObject({ missingDate: null, zipCode: null });
    const alert = await request.get(`/api/v2/petalert/alerts/bypet/${petId}`, { headers });
    expect(alert.status()).toBe(404);
    expect((await alert.json()).errors).toEqual(['No Alerts found for pet']);

    // With a home ZIP in the profile, the switch stands in for the ZIP field.
    const me = await apiResult<{ id: number; data: { firstName: string; lastName: string; email: string } }>(request, owner, 'Users/current-user');
    const saved = await request.put(`/api/v2/Users/${me.id}`, {
      headers,
      data: { firstName: me.data.firstName, lastName: me.data.lastName, email: me.data.email, zipcode: '63101' },
    });
    expect(saved.status(), await saved.text()).toBe(200);
    await page.reload();
    await expect(homeSwitch).toBeEnabled();
    await homeSwitch.check();
    await expect(page.getByLabel('Last Seen ZIP Code')).toHaveCount(0);
    await expect(page.getByText('Saint Louis, MO 63101')).toBeVisible();
    await page.getByRole('button', { name: 'Send Lost Pet Alert' }).click();
    await expect(page.getByText('Missing date is required')).toBeVisible();
    await expect(page.getByText('Zipcode is required.')).toHaveCount(0);
  });
});
