import { fileURLToPath } from 'node:url';
import type { Page } from '@playwright/test';
import { createOwner, expect, lastMailTo, randomChip, signIn, test } from './fixtures';
import { dogRegistration, type RegistrationChoices } from './registration';

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });
const dogPhoto = fileURLToPath(new URL('./files/found-dog.png', import.meta.url));

test.describe('[FINDER][REACH_OWNER]', () => {
  test('a finder on a phone scans the tag of a pet that is not flagged lost, reaches the owner with a photo, and the owner is mailed', async ({ browser, page: ownerPage, request }) => {
    const owner = await createOwner(request, 'Morgan');
    const headers = { authorization: `Bearer ${owner.token}` };
    const choices: RegistrationChoices = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    const created = await request.post('/api/v2/Pet/create-pet', { headers, data: dogRegistration(randomChip(), choices) });
    expect(created.status()).toBe(200);
    const pet: { id: number; publicId: string; shortId: string } = (await created.json()).result.pet;

    // The owner asks finders a question about a trait the public profile does not show.
    await ownerPage.goto('/sign-in');
    await signIn(ownerPage, owner.email, owner.password);
    await expect(ownerPage.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await ownerPage.goto(`/client/pet/update/${pet.id}`);
    await ownerPage.getByRole('button', { name: 'Edit' }).click();
    const question = ownerPage.getByLabel('Question for a finder (optional)');
    await question.fill('What colour is the collar?');
    await expect(ownerPage.getByText('only you see the answer')).toBeVisible();
    await question.scrollIntoViewIfNeeded();
    await ownerPage.screenshot({ path: test.info().outputPath('pet-question.png') });
    await ownerPage.getByRole('button', { name: 'Save' }).click();
    await expect(ownerPage.getByText('Record saved successfully')).toBeVisible();
    await ownerPage.goto('/client/profile');
    await expect(ownerPage.getByRole('switch', { name: 'Text me when someone reports finding my pet' })).toBeChecked();
    await ownerPage.getByRole('switch', { name: 'Text me when someone reports finding my pet' }).scrollIntoViewIfNeeded();
    await ownerPage.screenshot({ path: test.info().outputPath('profile-switch.png') });

    // A stranger's phone: no session, the size of a common handset.
    const finderContext = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const page = await finderContext.newPage();
    // The finder scanned the collar tag: the short link's page of a pet that is not flagged lost.
    await page.goto(`/short/${pet.shortId}`);
    await expect(page.getByText('Biscuit').first()).toBeVisible();
    await page.getByRole('link', { name: 'Reach the owner' }).click();
    await expect(page).toHaveURL(new RegExp(`/found\\?pet=${pet.publicId}$`));
    await expect(page.getByRole('heading', { name: 'You found Biscuit?' })).toBeVisible();
    // Nothing of the owner on the page.
    await expect(page.locator('body')).not.toContainText(owner.email);
    await expect(page.locator('body')).not.toContainText('Rivera');

    await page.getByLabel('Your name').fill('Sam Porter');
    await page.getByLabel('Your phone').fill('(314) 555-0142');
    await page.getByLabel('Message to the owner').fill('Found this dog by the library.\nShe is safe in my yard.');
    await page.getByLabel('Where is the pet now?').fill('Maple St & 3rd, 63101');
    await page.getByLabel('What colour is the collar?').fill('Red, with a bell');
    await page.getByLabel('Choose a photo').setInputFiles(dogPhoto);
    await expect(page.getByRole('img', { name: 'Photo of the pet (optional) preview' })).toHaveAttribute('src', /^data:image\/png/);
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'found-form-390');

    await page.getByRole('button', { name: 'Send to the owner' }).click();
    await expect(page.getByRole('status')).toHaveText('Thank you. We sent your message to the owner.');
    await expect(page.locator('body')).not.toContainText(owner.email);
    await shot(page, 'found-thanks-390');
    await finderContext.close();

    const mail = await lastMailTo(owner.email, 'Someone found Biscuit');
    expect(mail.text).toContain('> Found this dog by the library.\n> She is safe in my yard.');
    expect(mail.text).toContain('Where Biscuit is now: Maple St & 3rd, 63101');
    expect(mail.text).toContain('Name: Sam Porter');
    expect(mail.text).toContain('The finder sent a photo');
    expect(mail.text).toContain('Your question: What colour is the collar?\nTheir answer: Red, with a bell');
    expect(mail.text).toMatch(/Open the report: http:\/\/localhost:\d+\/client\/found-reports\/\d+/);
    expect(mail.text).toContain('Never pay a finder in advance.');
  });

  test('a chip number the lookup does not know opens no form', async ({ page }) => {
    await page.goto('/found?chip=985000000000001');
    await expect(page.getByText('This microchip is not registered.')).toBeVisible();
    await expect(page.getByRole('link', { name: 'look the microchip up' })).toHaveAttribute('href', '/microchip-lookup');
  });
});
