import { readFileSync } from 'node:fs';
import type { APIRequestContext } from '@playwright/test';
import { createOwner, expect, signIn, test, type Owner } from './fixtures';
import { dogRegistration, type RegistrationChoices } from './registration';

interface CreatedPet {
  id: number;
  publicId: string;
  shortId: string;
}

let chipCounter = 0;
/** A fresh HomeAgain ISO number per pet, so runs never collide on the one-pet-per-chip rule. */
const newChip = () => `985${String(Date.now()).slice(-9)}${String(process.pid % 100).padStart(2, '0')}${chipCounter++ % 10}`;

async function result<T>(response: Awaited<ReturnType<APIRequestContext['get']>>): Promise<T> {
  expect(response.status(), await response.text()).toBe(200);
  return ((await response.json()) as { result: T }).result;
}

/** Registers a dog for the owner through the API, as the registration form would. */
async function createPet(request: APIRequestContext, owner: Owner, name = 'Biscuit') {
  const headers = { authorization: `Bearer ${owner.token}` };
  const choices = await result<RegistrationChoices>(await request.get('/api/v2/utilities/static-data'));
  const chipId = newChip();
  const created = await result<{ pet: CreatedPet }>(await request.post('/api/v2/Pet/create-pet', { headers, data: dogRegistration(chipId, choices, name) }));
  return { ...created.pet, chipId };
}

/** Pays the yearly plan on the portal's own checkout, through the API, which registers the chip. */
async function registerThroughCheckout(request: APIRequestContext, owner: Owner, petId: number) {
  const headers = { authorization: `Bearer ${owner.token}` };
  const { plans } = await result<{ plans: { id: number; oneTime: boolean }[] }>(await request.get('/api/v2/pet/plans'));
  await result(await request.put('/api/v2/Pet/update-plan', { headers, data: { id: petId, planId: plans.find((p) => !p.oneTime)!.id } }));
  const { location } = await result<{ location: string }>(
    await request.get(`/api/v2/checkout/stripe-subscription/${petId}?petFlow=true`, { headers }),
  );
  const sessionId = new URL(location).pathname.split('/').pop()!;
  await result(
    await request.post(`/api/v2/checkout/local/${sessionId}/pay`, {
      headers,
      data: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/30', cvc: '123' },
    }),
  );
}

test.describe('[PUBLIC]', () => {
  test('[LOOKUP]: a finder looks up a registered chip and is sent to the support line', async ({ page, request }) => {
    const owner = await createOwner(request);
    const pet = await createPet(request, owner);
    await registerThroughCheckout(request, owner, pet.id);

    await page.goto('/microchip-lookup');
    await expect(page.getByRole('button', { name: 'Search' })).toBeDisabled();
    // Readers print numbers with spaces; the lookup finds the chip all the same.
    await page.getByLabel('Microchip Number').fill(`${pet.chipId.slice(0, 3)} ${pet.chipId.slice(3)}`);
    await page.getByLabel('Microchip Number').press('Enter');

    await expect(page.getByText('This microchip is registered!')).toBeVisible();
    await expect(page.getByText(/dial extension 703 to speak with a live representative/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Reach the owner' })).toHaveAttribute('href', `/found?chip=${pet.chipId}`);
    await expect(page.getByText('Manufacturer: Destron Fearing / HomeAgain')).toBeVisible();
    await expect(page.getByText(owner.email)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('lookup-registered.png'), fullPage: true });

    await page.getByRole('button', { name: 'Clear' }).click();
    await expect(page.getByLabel('Microchip Number')).toHaveValue('');
    await expect(page.getByText('This microchip is registered!')).toHaveCount(0);
  });

  test('[LOOKUP]: a chip nobody registered is not registered, with a Signup link and the manufacturer', async ({ page, request }) => {
    const owner = await createOwner(request);
    const unpaid = await createPet(request, owner);

    await page.goto('/microchip-lookup');
    await page.getByLabel('Microchip Number').fill('0A12345678');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('This microchip is not registered.')).toBeVisible();
    await expect(page.getByText(/only works when it is enrolled with a recovery registry/)).toBeVisible();
    await expect(page.getByRole('link', { name: 'Signup' })).toHaveAttribute('href', '/sign-up');
    await expect(page.getByText('Manufacturer: 24PetWatch')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('lookup-not-registered.png'), fullPage: true });

    // A chip entered by an owner who has not paid is not registered either.
    await page.getByRole('button', { name: 'Clear' }).click();
    await page.getByLabel('Microchip Number').fill(unpaid.chipId);
    await page.getByLabel('Microchip Number').press('Enter');
    await expect(page.getByText('This microchip is not registered.')).toBeVisible();
  });

  test('[LOOKUP]: a number of the wrong length gets the length message and no search', async ({ page }) => {
    await page.goto('/microchip-lookup');
    await expect(page.getByRole('link', { name: "I don't know my pet's chip number" })).toHaveAttribute('href', /^https:\/\//);
    await page.getByLabel('Microchip Number').fill('12345');
    await page.getByLabel('Microchip Number').press('Enter');
    await expect(page.getByText('A Microchip Number is 9, 10 or 15 digits long.')).toBeVisible();
    await expect(page.getByText(/This microchip is/)).toHaveCount(0);
  });

  test('[LOOKUP]: a new search or a refused number clears the previous answer', async ({ page }) => {
    await page.goto('/microchip-lookup');
    const chip = page.getByLabel('Microchip Number');
    await chip.fill('0A12345678');
    await chip.press('Enter');
    await expect(page.getByText('This microchip is not registered.')).toBeVisible();
    await chip.fill('12345');
    await chip.press('Enter');
    await expect(page.getByText('A Microchip Number is 9, 10 or 15 digits long.')).toBeVisible();
    await expect(page.getByText(/This microchip is/)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('lookup-length-after-answer.png'), fullPage: true });
  });

  test('[PROFILE]: an unknown profile says so and offers the microchip lookup', async ({ page }) => {
    await page.goto('/pet-profiles/00000000-0000-4000-8000-000000000000');
    await expect(page.getByRole('heading', { level: 1, name: "We couldn't find this pet profile" })).toBeVisible();
    await page.getByLabel('Microchip Number').fill('0A12345678');
    await page.getByRole('button', { name: 'Search' }).click();
    await expect(page.getByText('This microchip is not registered.')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('profile-unknown.png'), fullPage: true });
    await page.goto('/pet-profiles/not-a-profile');
    await expect(page.getByRole('heading', { level: 1, name: "We couldn't find this pet profile" })).toBeVisible();
    await expect(page.getByRole('alert')).toHaveCount(0);
  });

  test("[PROFILE]: a collar tag's short link opens the pet's profile, safe at home, with no contact", async ({ page, request }) => {
    const owner = await createOwner(request, 'Morgan');
    const pet = await createPet(request, owner);

    await page.goto(`/short/${pet.shortId}`);
    await expect(page).toHaveURL(new RegExp(`/pet-profiles/${pet.publicId}$`));
    await expect(page.getByRole('heading', { level: 1, name: 'Biscuit' })).toBeVisible();
    await expect(page.getByText('Dog name')).toBeVisible();
    await expect(page.getByText('Home', { exact: true })).toBeVisible();
    await expect(page.getByRole('region', { name: 'Not lost' })).toContainText('Safe at home');
    await expect(page.getByText('19.1 kg')).toBeVisible();
    await expect(page.getByText('Female')).toBeVisible();
    await expect(page.getByRole('region', { name: 'Owners details' })).toContainText('Morgan Rivera');
    await expect(page.getByRole('region', { name: 'Contact' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Register Your Pet' })).toBeVisible();
    await expect(page.getByText(`© ${new Date().getFullYear()}`)).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('profile.png'), fullPage: true });
  });

  test('[SHORT]: a worn or mistyped short link leaves the finder on the lookup page, saying Invalid Short URL', async ({ page }) => {
    await page.goto('/short/zzzzzzzz');
    await expect(page).toHaveURL(/\/microchip-lookup$/);
    const notice = page.getByRole('alert').filter({ hasText: 'Invalid Short URL' });
    await expect(notice).toContainText('The link on the tag may be worn or mistyped.');
    await expect(notice.getByRole('link', { name: /\(\d{3}\) \d{3}/ })).toBeVisible();
    await expect(page.getByLabel('Microchip Number')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('short-link-invalid.png'), fullPage: true });
  });

  test("[TAG]: an owner downloads the QR code of the pet's short link as PNG and SVG", async ({ page, request }) => {
    const owner = await createOwner(request);
    const pet = await createPet(request, owner);
    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/client/);
    await page.goto(`/client/pet/update/${pet.id}`);

    const tag = page.getByRole('region', { name: 'Collar Tag' });
    const shortUrl = new URL(`/short/${pet.shortId}`, page.url()).href;
    await expect(tag.getByRole('link', { name: shortUrl })).toBeVisible();
    await expect(tag.getByRole('img', { name: `QR code for ${shortUrl}` })).toBeVisible();

    const [png] = await Promise.all([page.waitForEvent('download'), tag.getByRole('button', { name: 'Download PNG' }).click()]);
    expect(png.suggestedFilename()).toBe('Biscuit-tag-qr.png');
    expect(readFileSync(await png.path()).subarray(1, 4).toString()).toBe('PNG');
    const [svg] = await Promise.all([page.waitForEvent('download'), tag.getByRole('button', { name: 'Download SVG' }).click()]);
    expect(svg.suggestedFilename()).toBe('Biscuit-tag-qr.svg');
    expect(readFileSync(await svg.path(), 'utf8')).toContain('<svg');
  });

  test('[LEGAL]: the support panel and footers lead to the portal\'s own home, privacy and terms pages, never the dashboard', async ({ page, request }) => {
    const owner = await createOwner(request);
    await page.setViewportSize({ width: 1366, height: 768 });
    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    const panel = page.getByRole('complementary', { name: 'Support' });
    await expect(panel.getByRole('link', { name: 'Home' })).toBeVisible();
    // No BLOG_URL configured: no Blog link rather than one into the portal.
    await expect(panel.getByRole('link', { name: 'Blog' })).toHaveCount(0);

    await panel.getByRole('link', { name: 'Privacy Policy' }).click();
    await expect(page).toHaveURL(/\/privacy$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Privacy Policy' })).toBeVisible();
    await expect(page.getByText(/^TEMPLATE: this is the default text/)).toBeVisible();
    await expect(page.getByRole('heading', { level: 2, name: 'What finders see' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('privacy.png'), fullPage: true });

    await page.getByRole('contentinfo').getByRole('link', { name: 'Terms of Service' }).click();
    await expect(page).toHaveURL(/\/terms$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();

    await page.goto('/client');
    await panel.getByRole('link', { name: 'Home' }).click();
    await expect(page).toHaveURL(/\/microchip-lookup$/);
    await expect(page.getByRole('heading', { name: 'Microchip Lookup' })).toBeVisible();

    // Guests read them too.
    await page.context().clearCookies();
    await page.evaluate(() => localStorage.clear());
    await page.goto('/terms');
    await expect(page.getByRole('heading', { level: 1, name: 'Terms of Service' })).toBeVisible();
  });

  test('[HEALTH]: the health page reads the health API', async ({ page }) => {
    await page.goto('/healthcheck');
    await expect(page.getByRole('textbox', { name: 'Health Status' })).toHaveValue(/Status: Healthy/);
  });
});
