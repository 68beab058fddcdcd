import AxeBuilder from '@axe-core/playwright';
import type { APIRequestContext, Locator, Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { createOwner, expect, lastMailTo, ownerWithPet, payThroughApi, randomChip, signIn, test, type Owner } from './fixtures';

/** A screen of the portal: its name in the report, where it is, and (when its h1 is not enough) what shows it is ready. */
interface Screen {
  name: string;
  path: string;
  ready?: (page: Page) => Promise<void>;
  /** A dialog or menu `ready` opened covers the screen: the page behind, its h1 with it, is hidden from screen readers meanwhile. */
  overlay?: boolean;
  /** What must still show once the scan is done: a toast, which hides by itself, so the scan saw it. */
  stays?: (page: Page) => Locator;
}

const widths = [
  { name: 'desktop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
];

/** WCAG 2.1 A and AA: the rules the portal holds to. */
const wcagTags = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'];

/** The serious and critical violations axe finds on the page, one line per rule and element. */
async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const { violations } = await new AxeBuilder({ page }).withTags(wcagTags).analyze();
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .flatMap((v) => v.nodes.map((node) => `${where}: ${v.id} (${v.impact}) at ${node.target.join(' ')} ${node.html.slice(0, 160)}`));
}

/** Waits until what moves has stopped (a dialog fading in, a toast sliding in): axe reads colours half-faded as they are. */
async function settled(page: Page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running' || a.effect?.getTiming().iterations === Infinity));
}

/** Opens each screen at each width once it has loaded, and fails listing every serious or critical violation found. */
async function expectAccessible(page: Page, screens: Screen[]) {
  const found: string[] = [];
  for (const size of widths) {
    await page.setViewportSize({ width: size.width, height: size.height });
    for (const screen of screens) {
      await page.goto(screen.path);
      await expect(page.getByRole('main')).toBeVisible();
      await expect(page.getByRole('progressbar')).toHaveCount(0);
      await screen.ready?.(page);
      await settled(page);
      const where = `${screen.name} (${screen.path}) at ${size.name} width`;
      const violations = await seriousViolations(page, where);
      if (screen.stays) await expect(screen.stays(page), `${where}: shown until the scan was done`).toBeVisible();
      // A screen names itself in one top-level heading, which screen readers jump to.
      if (!screen.overlay && (await page.getByRole('heading', { level: 1 }).count()) !== 1) violations.push(`${where}: not one h1`);
      test.info().annotations.push({ type: 'axe', description: `${screen.name} at ${size.name} width: ${violations.length}` });
      // What the screen looked like when checked, to see that its colours and markup still read well.
      await page.screenshot({ path: test.info().outputPath(`${screen.name.replace(/\W+/g, '-')}-${size.name}.png`), fullPage: true });
      found.push(...violations);
    }
  }
  expect(found, 'serious or critical accessibility violations').toEqual([]);
}

/** A screen's `ready` that opens a dialog (or menu) with the button named `name`, so it is scanned while open. */
const opening =
  (name: string | RegExp, open: 'dialog' | 'menu' = 'dialog') =>
  async (page: Page) => {
    await page.getByRole('button', { name }).first().click();
    await expect(page.getByRole(open)).toBeVisible();
  };

/** A screen's `ready` that opens the drawer the button named `name` opens on a phone; on a desktop the drawer is always shown. */
const openingDrawer = (name: string | RegExp) => async (page: Page) => {
  const button = page.getByRole('button', { name });
  if (await button.isVisible()) {
    await button.click();
    await expect(page.getByRole('dialog')).toBeVisible();
  }
};

/** The toast saying `text`, held open with the pointer on it (a toast pauses its hiding meanwhile). */
async function heldToast(page: Page, text: string) {
  const toast = page.getByText(text);
  await expect(toast).toBeVisible();
  await toast.hover();
}

/** Signs whoever is signed in out, and the account given in. */
async function signInAs(page: Page, account: { email: string; password: string }) {
  await page.goto('/sign-out');
  await expect.poll(() => page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeNull();
  await page.goto('/sign-in');
  await signIn(page, account.email, account.password);
  await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
}

async function signInAsAdministrator(page: Page) {
  await signInAs(page, admin);
  await expect(page).toHaveURL(/\/admin-dashboard$/);
}

/** The screen at `path` with the dialog (or menu) the button named `button` opens, scanned while open. */
const withOpen = (name: string, path: string, button: string | RegExp, open: 'dialog' | 'menu' = 'dialog'): Screen => ({
  name,
  path,
  overlay: true,
  ready: opening(button, open),
});

async function apiResult<T>(request: APIRequestContext, owner: Owner, method: 'get' | 'post' | 'put', path: string, data?: object): Promise<T> {
  const response = await request[method](`/api/v2/${path}`, { headers: { authorization: `Bearer ${owner.token}` }, data });
  expect(response.status(), await response.text()).toBe(200);
  return (await response.json()).result as T;
}

/** An owner with a registered pet (paid, so finders see it), a second pet left unpaid at checkout, a vet and a found report. */
async function ownerWithRecords(page: Page, request: APIRequestContext) {
  const chip = randomChip();
  const { owner, petId } = await ownerWithPet(page, request, chip);
  await payThroughApi(request, owner, petId, true);
  const pet = await apiResult<{ publicId: string; shortId: string | null }>(request, owner, 'get', `Pet/${petId}`);

  const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
  const unpaidChip = randomChip();
  const unpaid = await apiResult<{ pet: { id: number } }>(request, owner, 'post', 'Pet/create-pet', {
    name: 'Pepper',
    speciesId: data.species[0].id,
    chipId: unpaidChip,
    confirmChip: unpaidChip,
    chipTypeId: data.brands[0].id,
  });
  const plans = await apiResult<{ plans: { id: number; oneTime: boolean }[] }>(request, owner, 'get', 'pet/plans');
  await apiResult(request, owner, 'put', 'Pet/update-plan', { id: unpaid.pet.id, planId: plans.plans.find((p) => !p.oneTime)!.id });
  const { location } = await apiResult<{ location: string }>(request, owner, 'get', `checkout/stripe-subscription/${unpaid.pet.id}?petFlow=false`);

  const found = await apiResult<{ results: { googlePlaceId: string }[] }>(request, owner, 'get', 'site/search?query=63101');
  const site = await apiResult<{ id: number }>(request, owner, 'post', `site/ByGoogleId/${found.results[0]!.googlePlaceId}`, {});
  await apiResult(request, owner, 'post', 'site/add-site-to-pets', { siteId: site.id, petIds: [petId] });

  const reported = await request.post('/api/v2/public/found-report', {
    data: { chipId: chip, name: 'Sam Finder', phone: '(314) 555-0142', message: 'Found her by the bakery.', where: 'Corner of 5th and Main, 63101' },
  });
  expect(reported.status(), await reported.text()).toBe(200);
  const inbox = await apiResult<{ items: { id: number }[] }>(request, owner, 'get', 'found-reports');

  return { owner, petId, chip, pet, unpaidPetId: unpaid.pet.id, checkoutPath: new URL(location).pathname, siteId: site.id, reportId: inbox.items[0]!.id };
}

test.describe('[ACCESSIBILITY]', () => {
  test("the public screens have no serious or critical WCAG 2.1 AA violation, at desktop and phone width", async ({ page, request }) => {
    test.slow();
    const { chip, pet } = await ownerWithRecords(page, request);
    await page.goto('/sign-out');
    await expect.poll(() => page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeNull();

    const lookupResult: Screen = {
      name: 'Microchip lookup, with a result',
      path: '/microchip-lookup',
      ready: async (p) => {
        await p.getByLabel('Microchip Number').fill(chip);
        await p.getByLabel('Microchip Number').press('Enter');
        await expect(p.getByText('This microchip is registered!')).toBeVisible();
      },
    };
    await expectAccessible(page, [
      { name: 'Sign in', path: '/sign-in' },
      { name: 'Sign up', path: '/sign-up' },
      { name: 'Sign-up form', path: '/sign-up-form' },
      { name: 'Forgot password', path: '/forgot-password' },
      { name: 'Reset password', path: '/reset-password?token=unknown' },
      { name: 'Microchip lookup', path: '/microchip-lookup' },
      lookupResult,
      { name: "A pet's public profile", path: `/pet-profiles/${pet.publicId}` },
      ...(pet.shortId ? [{ name: 'Short link page', path: `/short/${pet.shortId}` }] : []),
      { name: "The finder's form", path: `/found?chip=${chip}` },
      { name: 'A transfer offer, its link expired', path: '/pet-transfer?token=unknown' },
      { name: 'E-mail confirmation, its link expired', path: '/confirm-email?token=unknown' },
      { name: 'Privacy', path: '/privacy' },
      { name: 'Terms', path: '/terms' },
    ]);
  });

  test("the owners' screens have no serious or critical WCAG 2.1 AA violation, at desktop and phone width", async ({ page, request }) => {
    test.slow();
    const { petId, unpaidPetId, checkoutPath, siteId, reportId } = await ownerWithRecords(page, request);
    await expectAccessible(page, [
      { name: 'Dashboard', path: '/client/dashboard' },
      { name: 'Pets', path: '/client/pet' },
      { name: 'Add a pet', path: '/client/pet/add' },
      { name: 'Edit a pet', path: `/client/pet/update/${petId}` },
      { name: 'Edit an unpaid pet', path: `/client/pet/update/${unpaidPetId}` },
      { name: 'Plans', path: `/client/pet/checkout/${unpaidPetId}` },
      { name: 'Plan choice at sign-up', path: `/pet-subscription/${unpaidPetId}` },
      { name: 'Pet registration at sign-up', path: '/pet-register' },
      { name: 'Checkout', path: checkoutPath },
      { name: 'Billing', path: '/billing' },
      { name: 'Member perks', path: '/client/member-perks' },
      { name: 'Vet search', path: '/client/add-vet?query=63101' },
      { name: 'Assign a vet', path: `/client/add-vet-on-pet/${siteId}` },
      { name: "A vet's profile", path: `/client/vet-info/profile/${siteId}` },
      { name: "A vet's page (plain)", path: `/client/vet-detail/${siteId}` },
      { name: 'Alerts', path: '/client/add-alert' },
      { name: 'Lost alert form', path: `/client/add-alert/${petId}` },
      { name: 'Found reports', path: '/client/found-reports' },
      { name: 'A found report', path: `/client/found-reports/${reportId}` },
      { name: 'Profile', path: '/client/profile' },
      { name: 'Not found', path: '/404' },
    ]);
  });

  test("the owners' dialogs and menus have no serious or critical WCAG 2.1 AA violation while open, at desktop and phone width", async ({ page, request }) => {
    test.slow();
    const { petId, reportId } = await ownerWithRecords(page, request);
    await expectAccessible(page, [
      withOpen('Account menu', '/client/dashboard', /^Hi, /, 'menu'),
      {
        name: 'Log out confirmation',
        overlay: true,
        path: '/client/dashboard',
        ready: async (p) => {
          await opening(/^Hi, /, 'menu')(p);
          await p.getByRole('menuitem', { name: 'Log Out' }).click();
          await expect(p.getByRole('dialog')).toBeVisible();
        },
      },
      { name: 'Navigation drawer', overlay: true, path: '/client/dashboard', ready: openingDrawer(/^Open navigation/) },
      { name: 'Support drawer', overlay: true, path: '/client/dashboard', ready: openingDrawer('Support') },
      withOpen('Add a backup contact', '/client/dashboard', 'Add a contact'),
      withOpen('Transfer a pet to a new owner', `/client/pet/update/${petId}`, /^Transfer /),
      withOpen("Remove a pet's vet", `/client/pet/update/${petId}`, /^Remove /),
      withOpen('Share my phone with a finder', `/client/found-reports/${reportId}`, 'Share my phone with this finder'),
      withOpen('Mark a found report reunited', `/client/found-reports/${reportId}`, 'Mark as reunited'),
      withOpen('Close my account', '/client/profile', 'Close my account'),
    ]);
  });

  test("the transfer dialogs, the giver's and the receiver's, have no serious or critical WCAG 2.1 AA violation while open, at desktop and phone width", async ({ page, request }) => {
    test.slow();
    const { owner, petId } = await ownerWithPet(page, request);
    const next = await createOwner(request, 'Robin');
    const offered = await request.post(`/api/v2/Pet/${petId}/transfer`, { headers: { authorization: `Bearer ${owner.token}` }, data: { email: next.email } });
    expect(offered.status(), await offered.text()).toBe(200);
    await expectAccessible(page, [withOpen('Cancel a transfer', `/client/pet/update/${petId}`, 'Cancel transfer')]);

    // Offers reach an account that proved its address: the sign-up's link.
    await signInAs(page, next);
    const confirmation = await lastMailTo(next.email, 'Confirm your email address');
    await page.goto(confirmation.text!.match(/http:\/\/\S+/)![0].replace(/^http:\/\/localhost:\d+/, ''));
    await expect(page.getByText('Your email address is confirmed.')).toBeVisible();
    await expectAccessible(page, [
      withOpen('Accept a transfer', '/client/dashboard', 'Accept'),
      withOpen('Decline a transfer', '/client/dashboard', 'Decline'),
    ]);
  });

  test("the administrators' dialogs have no serious or critical WCAG 2.1 AA violation while open, at desktop and phone width", async ({ page, request }) => {
    test.slow();
    const { petId } = await ownerWithRecords(page, request);
    // A holder of this run's own: other journeys issue and revoke keys meanwhile.
    const holder = `Riverside Shelter ${Date.now()}`;
    const issued = 'API key issued. Copy it now: it is not shown again.';
    const revoked = 'API key revoked.';
    await signInAsAdministrator(page);
    await expectAccessible(page, [
      withOpen('Transfer a pet (administrator)', `/admin/pet/${petId}`, 'Transfer'),
      withOpen('Dispute hold', `/admin/pet/${petId}`, 'Dispute hold'),
      withOpen('Remove a pet (administrator)', `/admin/pet/${petId}`, 'Remove'),
      withOpen('Add a site', '/admin-sites', 'Add site'),
      withOpen('Import sites', '/admin-sites', 'Import CSV'),
      withOpen('Issue an API key', '/admin-api-keys', 'Issue a key'),
      {
        name: 'An API key issued, with its toast',
        overlay: true,
        path: '/admin-api-keys',
        ready: async (p) => {
          await opening('Issue a key')(p);
          await p.getByRole('dialog').getByLabel('Holder').fill(holder);
          await p.getByRole('button', { name: 'Issue key' }).click();
          await expect(p.getByRole('dialog', { name: `API key for ${holder}` })).toBeVisible();
          await heldToast(p, issued);
        },
        stays: (p) => p.getByText(issued),
      },
      withOpen('Revoke an API key', '/admin-api-keys', `Revoke the key of ${holder}`),
      {
        // A toast on its own: with a dialog open, the rest of the page is hidden from screen readers.
        name: 'An API key revoked, with its toast',
        path: '/admin-api-keys',
        ready: async (p) => {
          await opening(`Revoke the key of ${holder}`)(p);
          await p.getByRole('dialog').getByRole('button', { name: 'Revoke' }).click();
          await heldToast(p, revoked);
        },
        stays: (p) => p.getByText(revoked),
      },
      withOpen('Edit a site', '/admin-sites', /^Edit /),
      withOpen('A message in the mail log', '/admin-send-email', /^Open the /),
    ]);
  });

  test("the administrators' screens have no serious or critical WCAG 2.1 AA violation, at desktop and phone width", async ({ page, request }) => {
    test.slow();
    const { petId } = await ownerWithRecords(page, request);
    await signInAsAdministrator(page);
    await expectAccessible(page, [
      { name: 'Admin dashboard', path: '/admin-dashboard' },
      { name: 'Search', path: '/admin-search' },
      { name: 'Users found', path: '/admin/users/Rivera' },
      { name: 'Card payments found', path: '/admin/stripe-search/4242' },
      { name: 'A pet record', path: `/admin/pet/${petId}` },
      { name: 'Sites', path: '/admin-sites' },
      { name: 'Mail log', path: '/admin-send-email' },
      { name: 'Pet upload', path: '/bulk-pet-upload' },
      { name: 'API keys', path: '/admin-api-keys' },
    ]);
  });
});
