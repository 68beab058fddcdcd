import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { expect, ownerWithPet, payThroughApi, test, type Owner } from './fixtures';

/**
 * An owner whose chipped pet Juniper is paid for (active) and whose second pet Pebble has no plan
 * (inactive), signed in on the page.
 */
async function ownerWithActivePet(page: Page, request: APIRequestContext) {
  const { owner, petId } = await ownerWithPet(page, request);
  await payThroughApi(request, owner, petId, false);
  const species = (await (await request.get('/api/v2/utilities/static-data')).json()).result.species;
  const pebble = await request.post('/api/v2/Pet/create-pet', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: 'Pebble', speciesId: species[0].id },
  });
  expect(pebble.status()).toBe(200);
  return { owner, petId };
}

/** Searches the vet directory by the box and Enter, as an owner types it. */
async function searchVets(page: Page, query: string) {
  const box = page.getByLabel('Practice name, address or ZIP code');
  await box.fill(query);
  await box.press('Enter');
}

const results = (page: Page) => page.getByRole('list', { name: 'Search results' }).getByRole('article');
const resultsMap = (page: Page) => page.getByRole('region', { name: 'Map of the results' });
/** The markers of a map: Leaflet's keyboard-reachable icons, named by their title. */
const markers = (map: Locator) => map.locator('.leaflet-marker-icon');

/** A transparent 1×1 PNG: every map tile in these tests. */
const EMPTY_PNG = Buffer.from('iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=', 'base64');

/** Addresses outside the portal a test's page asked for (the tiles excepted): none, ever. */
let outside: string[] = [];

/**
 * Nothing leaves the machine: the maps' tiles (OpenStreetMap's by default) are answered by an empty
 * image, and any other outside address is refused and fails the test.
 */
test.beforeEach(async ({ page }) => {
  outside = [];
  // A pattern, not a function: Playwright matches it without asking the test process about every request.
  await page.route(
    /^https?:\/\/(?!localhost[:/])/,
    (route) => {
      const url = new URL(route.request().url());
      if (url.hostname === 'tile.openstreetmap.org' && /^\/\d+\/\d+\/\d+\.png$/.test(url.pathname)) {
        return route.fulfill({ contentType: 'image/png', body: EMPTY_PNG });
      }
      outside.push(url.href);
      return route.abort();
    },
  );
});
test.afterEach(() => expect(outside, 'requests to outside addresses').toEqual([]));

/** The owner's links through the API: which vets each pet has. */
async function vetsOfPet(request: APIRequestContext, owner: Owner, petId: number): Promise<{ id: number; name: string }[]> {
  const response = await request.get(`/api/v2/site/sites-for-pet/${petId}`, { headers: { authorization: `Bearer ${owner.token}` } });
  expect(response.status()).toBe(200);
  return (await response.json()).result;
}

test.describe('[VETS]', () => {
  test('an owner finds a vet by ZIP, assigns it to a pet, sees it on the dashboard, its page and the pet page, and removes it', async ({
    page,
    request,
  }) => {
    test.slow();
    const { owner, petId } = await ownerWithActivePet(page, request);

    await page.goto('/client');
    // The first page of a test loads the app: seconds on a busy machine.
    await expect(page.getByRole('region', { name: 'Your Vets' }).getByText('No vets yet')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('navigation', { name: 'Main' }).getByRole('link', { name: 'Veterinarians' }).click();
    await expect(page).toHaveURL(/\/client\/add-vet$/);
    await expect(page.getByRole('heading', { name: 'Find your vet', exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Search' })).toBeDisabled();

    // A ZIP code gives the nearest practices first (20 at most), each with its distance, on a map too.
    await searchVets(page, '63101');
    await expect(page).toHaveURL(/\/client\/add-vet\?query=63101$/);
    await expect(page.getByRole('status').filter({ hasText: 'nearest' })).toHaveText(/^\d+ nearest vets to Saint Louis, MO 63101$/, { timeout: 30_000 });
    await expect(results(page).first()).toBeVisible();
    const found = await results(page).count();
    expect(found).toBeLessThanOrEqual(20);
    await expect(page.getByRole('status').filter({ hasText: 'nearest' })).toHaveText(`${found} nearest vets to Saint Louis, MO 63101`);
    await expect(markers(resultsMap(page))).toHaveCount(found);
    const first = results(page).first();
    await expect(first.getByRole('heading')).toHaveText(/^Sample /);
    await expect(first.getByText(/^\d+\.\d miles away$/)).toBeVisible();
    await expect(first.getByRole('button', { name: 'Add vet' })).toBeEnabled();
    const distances = await results(page).getByText(/miles away$/).allTextContents();
    const miles = distances.map((text) => Number.parseFloat(text));
    expect(miles).toEqual([...miles].sort((a, b) => a - b));
    await page.screenshot({ path: test.info().outputPath('vet-search.png'), fullPage: true });
    const vetName = (await first.getByRole('heading').textContent())!;

    // Nothing found: a hint to search by ZIP instead.
    await searchVets(page, 'Qwxzv Jkqpfh');
    await expect(page.getByText('No vets found')).toBeVisible();
    await expect(page.getByText(/^Try your 5-digit ZIP code/)).toBeVisible();
    await page.goBack();
    await expect(results(page).first().getByRole('heading')).toHaveText(vetName);
    await expect(page.getByLabel('Practice name, address or ZIP code')).toHaveValue('63101');

    // Add vet: the next step assigns it; only the active pet can be chosen.
    await results(page).first().getByRole('button', { name: 'Add vet' }).click();
    await expect(page).toHaveURL(/\/client\/add-vet-on-pet\/\d+$/);
    const siteId = Number(new URL(page.url()).pathname.split('/').pop());
    await expect(page.getByRole('region', { name: 'Chosen vet' }).getByRole('heading', { name: vetName })).toBeVisible();
    const juniper = page.getByRole('checkbox', { name: 'Juniper' });
    const pebble = page.getByRole('checkbox', { name: 'Pebble' });
    await expect(juniper).toBeEnabled();
    await expect(juniper).not.toBeChecked();
    await expect(pebble).toBeDisabled();
    await expect(page.getByText('Complete the registration to add a vet.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Save' })).toBeDisabled();
    await juniper.check();
    await page.screenshot({ path: test.info().outputPath('vet-assign.png'), fullPage: true });
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Site(s) aded to pet')).toBeVisible();
    await expect(page).toHaveURL(/\/client$/);
    expect((await vetsOfPet(request, owner, petId)).map((vet) => vet.id)).toEqual([siteId]);

    // Your Vets shows the vet; its tile opens the vet's page.
    const tile = page.getByRole('list', { name: 'Vets' }).getByRole('link', { name: vetName });
    await expect(tile).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('dashboard-vets.png'), fullPage: true });
    await tile.click();
    await expect(page).toHaveURL(new RegExp(`/client/vet-info/profile/${siteId}$`));
    await expect(page.getByRole('heading', { level: 1, name: vetName })).toBeVisible();
    await expect(page.getByText(/^(Veterinary Care|Emergency Vet)$/)).toBeVisible();
    const hours = page.getByRole('region', { name: 'Business Hours' });
    await expect(hours.getByRole('table', { name: 'Business hours' }).or(hours.getByText('Hours not available'))).toBeVisible();
    const map = page.getByRole('link', { name: 'Open in map' });
    await expect(map).toHaveAttribute('href', /^https:\/\/www\.openstreetmap\.org\/\?mlat=-?\d+(\.\d+)?&mlon=-?\d+(\.\d+)?#map=16\//);
    await expect(map).toHaveAttribute('target', '_blank');
    await page.screenshot({ path: test.info().outputPath('vet-profile.png'), fullPage: true });
    await page.getByRole('link', { name: 'Go back' }).click();
    await expect(page).toHaveURL(/\/client$/);

    // The assign page now shows the pet as linked already.
    await page.goto(`/client/add-vet-on-pet/${siteId}`);
    await expect(page.getByRole('checkbox', { name: 'Juniper' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Juniper' })).toBeDisabled();
    await expect(page.getByText('Already linked')).toBeVisible();

    // The pet page lists the vet with its number, and removes it after asking.
    await page.goto(`/client/pet/update/${petId}`);
    // The pet page renders in seconds on a busy machine (2.5 to 6 s at a load of 9 on 2 cores); its vet card follows.
    await expect(page.getByRole('heading', { level: 1, name: 'Juniper' })).toBeVisible({ timeout: 30_000 });
    const vetCard = page.getByRole('region', { name: 'Veterinarian' });
    await expect(vetCard.getByRole('link', { name: vetName })).toHaveAttribute('href', `/client/vet-info/profile/${siteId}`);
    await expect(vetCard.getByRole('link', { name: /^\(\d{3}\) \d{3} - \d{4}$/ })).toHaveAttribute('href', /^tel:\+1\d{10}$/);
    await page.screenshot({ path: test.info().outputPath('pet-vets.png'), fullPage: true });
    await vetCard.getByRole('button', { name: `Remove ${vetName}` }).click();
    const dialog = page.getByRole('dialog', { name: `Remove ${vetName} from Juniper's vets?` });
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await expect(dialog).toBeHidden();
    await expect(vetCard.getByRole('link', { name: vetName })).toBeVisible();
    await vetCard.getByRole('button', { name: `Remove ${vetName}` }).click();
    await dialog.getByRole('button', { name: 'Remove' }).click();
    await expect(page.getByText('Vet removed successfully')).toBeVisible();
    await expect(vetCard.getByText('No vet linked yet')).toBeVisible();
    expect(await vetsOfPet(request, owner, petId)).toEqual([]);
    await page.goto('/client');
    await expect(page.getByRole('region', { name: 'Your Vets' }).getByText('No vets yet')).toBeVisible();
  });

  test('a vet added from the pet page comes back to the pet with the pet already chosen', async ({ page, request }) => {
    // The pet page twice, on a machine that may be busy.
    test.slow();
    const { petId } = await ownerWithActivePet(page, request);
    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByRole('heading', { level: 1, name: 'Juniper' })).toBeVisible({ timeout: 30_000 });
    await page.getByRole('region', { name: 'Veterinarian' }).getByRole('link', { name: 'Add a vet' }).click();
    await expect(page).toHaveURL(new RegExp(`/client/add-vet/${petId}$`));
    await expect(page.getByText("Search for Juniper's veterinarian")).toBeVisible();
    await page.getByLabel('Practice name, address or ZIP code').fill('Sample');
    await page.getByRole('button', { name: 'Search' }).click();
    const first = results(page).first();
    const vetName = (await first.getByRole('heading').textContent())!;
    await first.getByRole('button', { name: 'Add vet' }).click();

    await expect(page).toHaveURL(new RegExp(`/client/add-vet-on-pet/\\d+\\?petId=${petId}$`));
    await expect(page.getByRole('checkbox', { name: 'Juniper' })).toBeChecked();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Site(s) aded to pet')).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/client/pet/update/${petId}$`));
    await expect(page.getByRole('region', { name: 'Veterinarian' }).getByRole('link', { name: vetName })).toBeVisible({ timeout: 30_000 });
  });

  test('the older vet pages show the vet under a header linking home; without a vet the assign page points to the search', async ({
    page,
    request,
  }) => {
    const { owner } = await ownerWithActivePet(page, request);
    const headers = { authorization: `Bearer ${owner.token}` };
    const found = (await (await request.get('/api/v2/site/search?query=63101', { headers })).json()).result.results;
    const added = await request.post(`/api/v2/site/ByGoogleId/${found[0].googlePlaceId}`, { headers, data: {} });
    expect(added.status()).toBe(200);
    const site: { id: number; name: string } = (await added.json()).result;

    for (const path of [`/client/vet-detail/${site.id}`, `/client/vet/profile/${site.id}`]) {
      await page.goto(path);
      await expect(page.getByRole('heading', { level: 1, name: site.name })).toBeVisible();
      await expect(page.getByRole('link', { name: 'Open in map' })).toBeVisible();
      // A plain header: no side navigation.
      await expect(page.getByRole('navigation', { name: 'Main' })).toHaveCount(0);
    }
    await page.screenshot({ path: test.info().outputPath('vet-profile-plain.png'), fullPage: true });
    await page.getByRole('link', { name: 'Pet Registry' }).click();
    await expect(page).toHaveURL(/\/client$/);

    await page.goto('/client/add-vet-on-pet');
    await expect(page.getByText('Choose a vet first')).toBeVisible({ timeout: 30_000 });
    await page.getByRole('link', { name: 'Find a vet' }).click();
    await expect(page).toHaveURL(/\/client\/add-vet$/);

    await page.goto('/client/vet-info/profile/987654321');
    await expect(page.getByRole('alert')).toBeVisible();
  });

  test('results link to their vet page, show more on asking, and say when a real ZIP code has no vet nearby', async ({ page, request }) => {
    test.setTimeout(120_000);
    await ownerWithActivePet(page, request);
    // Manhattan has more than 40 vets within 50 miles.
    await page.goto('/client/add-vet?query=10001');
    await expect(results(page)).toHaveCount(20, { timeout: 30_000 });
    await expect(page.getByRole('status').filter({ hasText: 'nearest' })).toHaveText('20 nearest vets to New York, NY 10001');
    const map = resultsMap(page);
    await expect(markers(map)).toHaveCount(20);
    // The map is OpenStreetMap's, credited; its tiles came from the routed empty image.
    await expect(map.getByRole('link', { name: 'OpenStreetMap' })).toBeVisible();
    await expect.poll(() => map.locator('img.leaflet-tile-loaded').count()).toBeGreaterThan(0);

    // Show more: the next nearest, each with a marker, farther than the first 20.
    const firstMiles = Number.parseFloat((await results(page).nth(19).getByText(/miles away$/).textContent())!);
    await page.getByRole('button', { name: 'Show more' }).click();
    await expect(results(page)).not.toHaveCount(20);
    const shown = await results(page).count();
    expect(shown).toBeGreaterThan(20);
    expect(shown).toBeLessThanOrEqual(40);
    await expect(page.getByRole('status').filter({ hasText: 'nearest' })).toHaveText(`${shown} nearest vets to New York, NY 10001`);
    await expect(markers(map)).toHaveCount(shown);
    expect(Number.parseFloat((await results(page).nth(20).getByText(/miles away$/).textContent())!)).toBeGreaterThanOrEqual(firstMiles);
    await expect(page.getByRole('button', { name: 'Show more' })).toBeVisible({ visible: shown === 40 });

    // A marker names its vet and leads to its page, as its card's name does.
    const third = results(page).nth(2);
    const name = (await third.getByRole('heading').textContent())!;
    // Nearby samples share a point, so a marker may lie under another: the keyboard opens it.
    await markers(map).nth(2).focus();
    await markers(map).nth(2).press('Enter');
    await expect(markers(map).nth(2)).toHaveAttribute('title', `3. ${name}`);
    await expect(map.locator('.leaflet-popup').getByRole('link', { name })).toHaveAttribute('href', /^\/client\/vet-info\/profile\/\d+$/);
    await third.getByRole('link', { name, exact: true }).click();
    await expect(page).toHaveURL(/\/client\/vet-info\/profile\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name })).toBeVisible({ timeout: 30_000 });
    const vetMap = page.getByRole('region', { name: `Map of ${name}` });
    await expect(markers(vetMap)).toHaveCount(1);
    await expect(markers(vetMap)).toHaveAttribute('title', name);
    await page.goBack();
    await expect(results(page).first()).toBeVisible();
    await results(page).first().getByRole('link', { name: /^Details of / }).click();
    await expect(page).toHaveURL(/\/client\/vet-info\/profile\/\d+$/);

    // Key West lies more than 50 miles from any vet of the directory: a ZIP code that exists, with no vet near.
    await page.goto('/client/add-vet');
    await searchVets(page, '33040');
    await expect(page.getByText('No vets found within 50 miles of Key West, FL 33040')).toBeVisible();
    await expect(resultsMap(page)).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('vet-search-none-near.png'), fullPage: true });
    // A ZIP code that does not exist is a mistyped one.
    await searchVets(page, '00000');
    await expect(page.getByRole('alert')).toHaveText('We could not find this ZIP code. Please check it.');
  });

  test('the vet screens fit a laptop and a phone', async ({ page, request }) => {
    // Twelve page loads.
    test.slow();
    const { owner, petId } = await ownerWithActivePet(page, request);
    const headers = { authorization: `Bearer ${owner.token}` };
    const found = (await (await request.get('/api/v2/site/search?query=63101', { headers })).json()).result.results;
    const site = (await (await request.post(`/api/v2/site/ByGoogleId/${found[0].googlePlaceId}`, { headers, data: {} })).json()).result;
    const linked = await request.post('/api/v2/site/add-site-to-pets', { headers, data: { siteId: site.id, petIds: [petId] } });
    expect(linked.status()).toBe(200);

    const screens = [
      { name: 'search', path: '/client/add-vet?query=63101', ready: (p: Page) => markers(resultsMap(p)).first() },
      { name: 'assign', path: `/client/add-vet-on-pet/${site.id}`, ready: (p: Page) => p.getByRole('checkbox', { name: 'Pebble' }) },
      { name: 'profile', path: `/client/vet-info/profile/${site.id}`, ready: (p: Page) => markers(p.getByRole('region', { name: `Map of ${site.name}` })) },
      { name: 'profile-plain', path: `/client/vet-detail/${site.id}`, ready: (p: Page) => p.getByRole('link', { name: 'Open in map' }) },
      { name: 'dashboard', path: '/client', ready: (p: Page) => p.getByRole('list', { name: 'Vets' }).getByRole('link') },
      { name: 'pet', path: `/client/pet/update/${petId}`, ready: (p: Page) => p.getByRole('button', { name: `Remove ${site.name}` }) },
    ];
    for (const [width, height] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      for (const screen of screens) {
        await page.goto(screen.path);
        // Some of these pages take seconds on a busy machine.
        await expect(screen.ready(page)).toBeVisible({ timeout: 30_000 });
        // Nothing wider than the screen.
        expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
        // A map's credit is one whole line, inside the map.
        const credits = page.locator('.leaflet-control-attribution');
        if (screen.name === 'search' || screen.name === 'profile') await expect(credits.getByRole('link', { name: 'OpenStreetMap' })).toBeVisible();
        for (const credit of await credits.all()) {
          const box = await credit.evaluate((element) => ({
            lines: element.getBoundingClientRect().height / Number.parseFloat(getComputedStyle(element).lineHeight),
            clipped: element.scrollWidth > element.clientWidth,
            inside: element.getBoundingClientRect().left >= element.closest('.leaflet-container')!.getBoundingClientRect().left,
          }));
          expect(box, `${screen.name} at ${width}`).toEqual({ lines: expect.any(Number), clipped: false, inside: true });
          expect(box.lines).toBeLessThan(1.5);
        }
        await page.screenshot({ path: test.info().outputPath(`${screen.name}-${width}.png`), fullPage: true });
      }
    }
  });
});
