import type { APIRequestContext, Browser, Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { expect, lastMailTo, ownerWithPet, payThroughApi, petPhoto, signIn, test, type Owner } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** The owner reports the pet lost through the API, as the alert form does, sharing contact info: the profile then shows how to call. */
async function reportLost(page: Page, request: APIRequestContext, owner: Owner, petId: number): Promise<string> {
  const headers = { authorization: `Bearer ${owner.token}` };
  const get = async (path: string) => (await (await request.get(`/api/v2/${path}`, { headers })).json()).result;
  const dog: number = (await get('utilities/static-data')).species.find((s: { name: string }) => s.name === 'Dog').id;
  const beagle = (await get(`utilities/breeds-by-species/${dog}`)).find((b: { name: string }) => b.name === 'Beagle');
  const pet = await get(`Pet/${petId}`);
  const photo = await petPhoto(page);
  const profile = await request.put('/api/v2/Pet/pet-profile', {
    headers,
    data: {
      id: petId,
      name: pet.name,
      speciesId: dog,
      breeds: [beagle],
      sex: 2,
      dob: '2020-05-01',
      image: `data:image/png;base64,${photo.buffer.toString('base64')}`,
      chipId: pet.microchip1,
      confirmChip: pet.microchip1,
      chipTypeId: pet.chips[0].chipTypeId,
      shareContactInfo: true,
    },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  const alert = await request.post('/api/v2/petalert/send-mail-from-pet-alert', {
    headers,
    data: { name: pet.name, petId, missingDate: new Date(Date.now() - 3_600_000).toISOString(), zipCode: '63101', incidentDescription: 'Slipped her collar at the park.' },
  });
  expect(alert.status(), await alert.text()).toBe(200);
  return pet.publicId;
}

/** A stranger's browser: no session. */
const strangerPage = async (browser: Browser, width: number) =>
  (await browser.newContext({ viewport: { width, height: width > 600 ? 900 : 844 }, ...(width <= 600 && { isMobile: true, hasTouch: true }) })).newPage();

test.describe('[ADMIN][PROTECTED RECORD]', () => {
  test("an administrator protects an owner's record: the pet's public profile shows no owner, and Reach the owner still works", async ({ page, request, browser }) => {
    test.slow();
    const { owner, petId } = await ownerWithPet(page, request);
    await payThroughApi(request, owner, petId, true);
    const publicId = await reportLost(page, request, owner, petId);

    // Before: a finder sees the owner's name and can call them, as the owner chose.
    const finder = await strangerPage(browser, 1366);
    await finder.goto(`/pet-profiles/${publicId}`);
    await expect(finder.getByRole('heading', { name: 'Juniper', level: 1 })).toBeVisible();
    await expect(finder.getByRole('region', { name: 'Owners details' })).toContainText('Avery Rivera');
    await expect(finder.getByRole('link', { name: 'Call the owner' })).toBeVisible();

    // The administrator protects the record from the pet's record page.
    const adminPage = await (await browser.newContext({ viewport: { width: 1366, height: 900 } })).newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    await expect(adminPage.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await adminPage.goto(`/admin/pet/${petId}`);
    const panel = adminPage.getByLabel('Protected record');
    await expect(panel).toContainText('Not a protected record');
    await shot(adminPage, 'admin-record-unprotected-1366');
    await panel.getByRole('button', { name: 'Protect record' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Protect this record' });
    // A reason is required.
    await dialog.getByRole('button', { name: 'Protect record' }).click();
    await expect(dialog.getByText('Say why, in at least 5 characters.')).toBeVisible();
    await dialog.getByLabel('Why is the record protected?').fill('Domestic-abuse case: the owner asked on the phone, ticket 4411.');
    await shot(adminPage, 'protect-dialog-1366');
    await dialog.getByRole('button', { name: 'Protect record' }).click();
    await expect(adminPage.getByText("The record is protected: finders and professionals no longer see the owner's name or contact.")).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(panel).toContainText('Set by');
    await expect(panel).toContainText('Domestic-abuse case: the owner asked on the phone, ticket 4411.');
    await expect(panel.getByRole('button', { name: 'Remove protection' })).toBeVisible();
    await shot(adminPage, 'admin-record-protected-1366');
    expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(1366);
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await expect(panel).toBeVisible();
    expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(adminPage, 'admin-record-protected-390');

    // After: the same profile, on a wide screen and a phone, names and reaches nobody.
    for (const [width, view] of [
      [1366, finder],
      [390, await strangerPage(browser, 390)],
    ] as const) {
      await view.goto(`/pet-profiles/${publicId}`);
      await expect(view.getByRole('heading', { name: 'Juniper', level: 1 })).toBeVisible();
      await expect(view.getByRole('region', { name: 'Owners details' })).toHaveText(/The owner's details are private/);
      const body = view.locator('body');
      for (const detail of ['Avery', 'Rivera', owner.email, '555-2671']) await expect(body).not.toContainText(detail);
      await expect(view.getByRole('link', { name: 'Call the owner' })).toHaveCount(0);
      await expect(view.getByRole('link', { name: 'Email the owner' })).toHaveCount(0);
      expect(await view.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(width);
      await shot(view, `profile-protected-${width}`);
    }

    // Reach the owner still works: the relay hides the owner and passes the finder's words on.
    await finder.getByRole('link', { name: 'Reach the owner' }).click();
    await expect(finder.getByRole('heading', { name: 'You found Juniper?' })).toBeVisible();
    await finder.getByLabel('Your name').fill('Sam Porter');
    await finder.getByLabel('Your phone').fill('(314) 555-0142');
    await finder.getByLabel('Message to the owner').fill('Found her by the library.');
    await finder.getByLabel('Where is the pet now?').fill('Maple St & 3rd, 63101');
    await finder.getByRole('button', { name: 'Send to the owner' }).click();
    await expect(finder.getByRole('status')).toHaveText(/We sent your message to the owner/);
    await expect(finder.locator('body')).not.toContainText('Rivera');
    const mail = await lastMailTo(owner.email, 'Someone found Juniper');
    expect(mail.text).toContain('Found her by the library.');

    // The owner sees on the profile that the record is protected.
    await page.goto('/client/profile');
    await expect(page.getByText('Your record is protected')).toBeVisible();
    await shot(page, 'owner-profile-protected');
  });
});
