import type { APIRequestContext, Page } from '@playwright/test';
import { createOwner, expect, payThroughApi, randomChip, test } from './fixtures';
import { dogRegistration, type RegistrationChoices } from './registration';

const phone = { width: 390, height: 844 };
/** An 8 x 8 brown square: an alert needs the pet's photo. */
const photo =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPYUOWEFTEMLQkAqlVbAWoNf2sAAAAASUVORK5CYII=';

/** A dog with a photo, on a yearly plan (so its alert goes out at once, at no charge), reported lost, its owner sharing contact details. */
async function lostDog(request: APIRequestContext, name: string) {
  const owner = await createOwner(request, 'Casey');
  const headers = { authorization: `Bearer ${owner.token}` };
  const choices: RegistrationChoices = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
  const dog = choices.species.find((s) => s.name === 'Dog')!.id;
  const [breed] = (await (await request.get(`/api/v2/utilities/breeds-by-species/${dog}`)).json()).result;
  const created = await request.post('/api/v2/Pet/create-pet', {
    headers,
    data: { ...dogRegistration(randomChip(), choices, name), image: photo, breeds: [breed] },
  });
  expect(created.status()).toBe(200);
  const pet: { id: number; publicId: string; shortId: string } = (await created.json()).result.pet;
  await payThroughApi(request, owner, pet.id, false);
  const alert = await request.post('/api/v2/petalert/send-mail-from-pet-alert', {
    headers,
    data: { petId: pet.id, missingDate: new Date(Date.now() - 3_600_000).toISOString(), zipCode: '63101', incidentDescription: 'Slipped her collar at the park.' },
  });
  expect(alert.status(), await alert.text()).toBe(200);
  return pet;
}

test.describe('[FINDER PAGES] without JavaScript', () => {
  test.use({ javaScriptEnabled: false, viewport: phone });

  test("[PROFILE]: a lost pet's profile shows the pet, a working call link and Reach the owner", async ({ page, request }) => {
    const pet = await lostDog(request, 'Pepper');
    await page.goto(`/pet-profiles/${pet.publicId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Pepper' })).toBeVisible();
    await expect(page.getByText('Last Seen in Saint Louis, MO 63101, USA')).toBeVisible();
    // The server knows no reader's time zone: it says the time in UTC.
    await expect(page.getByRole('region', { name: 'Lost time' })).toContainText(/UTC$/);
    // A plain link: it hands the number to the phone with no script.
    await expect(page.getByRole('link', { name: 'Call the owner' })).toHaveAttribute('href', /^tel:\+?\d{10,}$/);
    await expect(page.getByRole('link', { name: 'Reach the owner' })).toHaveAttribute('href', `/found?pet=${pet.publicId}`);
    await page.screenshot({ path: test.info().outputPath('profile-no-js.png'), fullPage: true });
  });

  test("[SHORT]: a collar tag's short link shows the pet and Reach the owner before any script", async ({ page, request }) => {
    const pet = await lostDog(request, 'Juniper');
    await page.goto(`/short/${pet.shortId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Juniper' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reach the owner' })).toHaveAttribute('href', `/found?pet=${pet.publicId}`);
    await page.goto('/short/zzzzzzzz');
    await expect(page.getByRole('alert').filter({ hasText: 'Invalid Short URL' })).toBeVisible();
    await expect(page.getByLabel('Microchip Number')).toBeVisible();
  });

  test('[LOOKUP]: the lookup page reads without a script, with the support line', async ({ page }) => {
    await page.goto('/microchip-lookup');
    await expect(page.getByRole('heading', { level: 1, name: 'Microchip Lookup' })).toBeVisible();
    await expect(page.getByRole('contentinfo').getByRole('link', { name: /\(\d{3}\) \d{3}/ })).toHaveAttribute('href', /^tel:/);
    await page.screenshot({ path: test.info().outputPath('lookup-no-js.png'), fullPage: true });
  });
});

test.describe('[FINDER PAGES] with JavaScript', () => {
  test('[HYDRATION]: the server-rendered profile hydrates without a console error and keeps working', async ({ page, request }) => {
    const pet = await lostDog(request, 'Biscotti');
    await page.setViewportSize({ width: 1280, height: 900 });
    const html = await (await request.get(`/pet-profiles/${pet.publicId}`)).text();
    expect(html).toContain('Biscotti');
    await page.goto(`/pet-profiles/${pet.publicId}`);
    // Shown on wide screens once the browser runs the page (the server cannot know the width).
    const numbers = page.getByRole('button', { name: 'Phone numbers' });
    await numbers.click();
    await expect(page.getByRole('menuitem', { name: /Owner's Number/ })).toHaveAttribute('href', /^tel:/);
    await page.keyboard.press('Escape');
    // In the reader's own time zone now, no longer UTC.
    await expect(page.getByRole('region', { name: 'Lost time' })).not.toContainText('UTC');

    // The short link, hydrated, moves to the profile's own address by a client-side navigation.
    await page.setViewportSize(phone);
    await page.goto(`/short/${pet.shortId}`);
    await expect(page).toHaveURL(new RegExp(`/pet-profiles/${pet.publicId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Biscotti' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('profile-hydrated.png'), fullPage: true });
  });

  /**
   * Holds every script until `typed` has run, so a finder types on the page the server sent, before
   * hydration, as on a slow phone; then lets the scripts through.
   */
  async function typeBeforeScripts(page: Page, url: string, typed: () => Promise<void>) {
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/*.js', async (route) => {
      await released;
      await route.continue();
    });
    await page.goto(url, { waitUntil: 'commit' });
    await typed();
    release();
  }

  test("[FIRST USE]: the lookup form's code loads when a finder touches it, and a search asked before it runs is carried out", async ({ page }) => {
    const formCode: string[] = [];
    let release!: () => void;
    const released = new Promise<void>((resolve) => (release = resolve));
    await page.route('**/MicrochipLookup-*.js', async (route) => {
      formCode.push(route.request().url());
      await released;
      await route.continue();
    });
    await page.goto('/microchip-lookup', { waitUntil: 'networkidle' });
    expect(formCode).toEqual([]);
    const chip = page.getByLabel('Microchip Number');
    await chip.fill('0A12345678');
    await expect.poll(() => formCode.length).toBe(1);
    // Enter while the form's code is still on its way: the page must not reload, the search waits for it.
    await chip.press('Enter');
    release();
    await expect(page.getByText('This microchip is not registered.')).toBeVisible();
    await expect(page).toHaveURL(/\/microchip-lookup$/);
    await expect(chip).toHaveValue('0A12345678');
  });

  test('[EARLY TYPING]: a chip number typed before the scripts run is kept, and Search finds it', async ({ page }) => {
    for (const url of ['/microchip-lookup', '/pet-profiles/00000000-0000-4000-8000-000000000000']) {
      const chip = page.getByLabel('Microchip Number');
      await typeBeforeScripts(page, url, () => chip.fill('0A12345678'));
      // Hydrated: the Clear button only the script shows for a typed number.
      await expect(page.getByRole('button', { name: 'Clear' })).toBeVisible();
      await expect(chip).toHaveValue('0A12345678');
      await page.getByRole('button', { name: 'Search' }).click();
      await expect(page.getByText('This microchip is not registered.')).toBeVisible();
      await page.unrouteAll();
    }
  });
});
