import type { APIRequestContext, Page } from '@playwright/test';
import { createOwner, expect, payThroughApi, randomChip, signIn, test, textsTo } from './fixtures';
import { dogRegistration, type RegistrationChoices } from './registration';

const finderPhone = '+13145550142';

/** A photo as a finder's phone would send it: a real PNG, drawn by the browser, as a data URL. */
const finderPhoto = (page: Page) =>
  page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 240;
    canvas.height = 180;
    const ctx = canvas.getContext('2d')!;
    ctx.fillStyle = '#9cc5a1';
    ctx.fillRect(0, 0, 240, 180);
    ctx.fillStyle = '#6b4423';
    ctx.beginPath();
    ctx.ellipse(120, 100, 70, 45, 0, 0, Math.PI * 2);
    ctx.fill();
    return canvas.toDataURL('image/png');
  });

/** The finder's report, sent as the finder's form sends it (POST public/found-report). */
async function reportFound(request: APIRequestContext, chipId: string, photo: string) {
  const sent = await request.post('/api/v2/public/found-report', {
    data: {
      chipId,
      name: 'Sam <b>Finder</b>',
      phone: '(314) 555-0142',
      email: 'sam.finder@example.net',
      message: 'Found her by the bakery on 5th, no collar.\n<img src=x onerror=alert(1)> She is calm, see https://pay-me.example',
      where: 'Corner of 5th and Main, 63101',
      photo,
      answer: 'Red, with a bell',
    },
  });
  expect(sent.status(), await sent.text()).toBe(200);
}

test.describe('[FOUND REPORTS]', () => {
  test('an owner sees the badge, opens the report, shares the phone with the finder and marks the pet reunited', async ({ page, request }) => {
    test.slow();

    const owner = await createOwner(request, 'Avery');
    const headers = { authorization: `Bearer ${owner.token}` };
    const choices: RegistrationChoices = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    const chip = randomChip();
    const registration = dogRegistration(chip, choices, 'Juniper');
    const created = await request.post('/api/v2/Pet/create-pet', { headers, data: registration });
    expect(created.status()).toBe(200);
    // The owner's question for finders, set on the pet's edit form.
    const { chipTypeId, speciesId, sex, dob, name } = registration;
    const question = { id: (await created.json()).result.pet.id, name, speciesId, sex, dob, breeds: [], chipId: chip, confirmChip: chip, chipTypeId };
    const asked = await request.put('/api/v2/Pet/pet-profile', { headers, data: { ...question, verificationQuestion: 'What colour is her collar?' } });
    expect(asked.status(), await asked.text()).toBe(200);
    // Registered: the lookup knows the chip, so a finder can report it.
    await payThroughApi(request, owner, question.id, true);
    // Only a verified mobile number is shared with a finder: proven with the texted code.
    expect((await request.post('/api/v2/Users/send-phone-code', { headers })).status()).toBe(200);
    const code = /(\d{6}) is your Pet Registry code/.exec((await textsTo('+14155552671')).at(-1)!)![1]!;
    const verified = await request.post('/api/v2/Users/verify-phone', { headers, data: { code } });
    expect(verified.status(), await verified.text()).toBe(200);

    await page.goto('/sign-in');
    await reportFound(request, chip, await finderPhoto(page));
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();

    // The menu's badge and the dashboard card tell of the unopened report.
    const nav = page.getByRole('navigation', { name: 'Main' });
    await expect(nav.getByRole('link', { name: 'Found reports, 1 not opened' })).toBeVisible();
    const card = page.getByRole('region', { name: 'Found reports' });
    await expect(card.getByText('1 new')).toBeVisible();
    const item = card.getByRole('link', { name: 'Juniper found by Sam <b>Finder</b>' });
    await expect(item).toContainText('New');
    await page.screenshot({ path: '/tmp/inbox-dashboard.png', fullPage: true });
    // At phone size the menu folds away: its button carries the badge.
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('button', { name: 'Open navigation, 1 found report not opened' })).toBeVisible();
    await page.screenshot({ path: '/tmp/inbox-dashboard-390.png' });
    await page.setViewportSize({ width: 1280, height: 720 });

    await item.click();
    await expect(page).toHaveURL(/\/client\/found-reports\/\d+$/);
    await expect(page.getByRole('heading', { level: 1, name: 'Juniper was found' })).toBeVisible();
    await expect(page.getByText('Never pay a finder in advance. Arrange to meet in a public place')).toBeVisible();
    // The finder's words are text: their line break kept, no markup, no link.
    const message = page.getByRole('region', { name: "The finder's message" });
    await expect(message).toContainText('<img src=x onerror=alert(1)> She is calm, see https://pay-me.example');
    expect(await message.locator('p').first().innerText()).toBe(
      'Found her by the bakery on 5th, no collar.\n<img src=x onerror=alert(1)> She is calm, see https://pay-me.example',
    );
    await expect(message.locator('a, img, b')).toHaveCount(0);
    await expect(page.getByRole('region', { name: 'Where the pet is now' })).toContainText('Corner of 5th and Main, 63101');
    await expect(page.getByRole('region', { name: 'Your question' })).toContainText("The finder's answer: Red, with a bell");
    const finder = page.getByRole('region', { name: 'The finder', exact: true });
    await expect(finder).toContainText('Sam <b>Finder</b>');
    await expect(finder.getByRole('link', { name: '(314) 555 - 0142' })).toHaveAttribute('href', `tel:${finderPhone}`);
    await expect(page.getByRole('img', { name: 'Photo of Juniper from the finder' })).toHaveAttribute('src', /^blob:/);
    // Opened: the badge is gone.
    await expect(nav.getByRole('link', { name: 'Found reports', exact: true })).toBeVisible();

    await page.getByRole('button', { name: 'Share my phone with this finder' }).click();
    const dialog = page.getByRole('dialog', { name: 'Share my phone with this finder' });
    await expect(dialog).toContainText('(415) 555 - 2671');
    await dialog.getByLabel('A line for the finder (optional)').fill('Thank you! I can be there in 20 minutes.');
    await dialog.getByRole('button', { name: 'Share my phone' }).click();
    await expect(page.getByText('Your phone number is on its way to the finder.')).toBeVisible();
    await expect(page.getByText(/You shared your phone number on \d\d\/\d\d\/\d{4} \d{1,2}:\d\d [AP]M\./)).toBeVisible();
    const [text] = await textsTo(finderPhone);
    expect(text).toBe(
      `To: ${finderPhone}\n\nAvery, Juniper's owner, read your report and asks you to call or text (415) 555 - 2671. Avery adds: "Thank you! I can be there in 20 minutes." Thank you for helping Juniper home.\n`,
    );

    await page.getByRole('button', { name: 'Mark as reunited' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Mark as reunited' }).click();
    await expect(page.getByText('Marked as reunited. Welcome home!')).toBeVisible();
    await expect(page.getByText(/Reunited on \d\d\/\d\d\/\d{4}/)).toBeVisible();
    await page.screenshot({ path: '/tmp/inbox-report.png', fullPage: true });

    // At phone size the folded menu carries no badge now, and the inbox lists the report as reunited.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByRole('link', { name: 'All found reports' }).click();
    await expect(page.getByRole('heading', { level: 1, name: 'Found reports' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Open navigation', exact: true })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Juniper found by Sam <b>Finder</b>' })).toContainText('Reunited');
    await page.screenshot({ path: '/tmp/inbox-list-390.png', fullPage: true });
    await page.goBack();
    await expect(page.getByRole('heading', { level: 1, name: 'Juniper was found' })).toBeVisible();
    await page.screenshot({ path: '/tmp/inbox-report-390.png', fullPage: true });
  });
});
