import type { Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { addClinic, createOwner, expect, lostPetAlert, payThroughApi, randomChip, signIn, test } from './fixtures';

const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });

test.describe('[ADMIN][MAIL]', () => {
  test("an administrator finds an owner's receipt in the mail log and reads it", async ({ page, request }) => {
    const owner = await createOwner(request, 'Morgan');
    const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    const chip = randomChip();
    const created = await request.post('/api/v2/Pet/create-pet', {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: 'Pepper', speciesId: data.species[0].id, chipId: chip, confirmChip: chip, chipTypeId: data.brands[0].id },
    });
    await payThroughApi(request, owner, (await created.json()).result.pet.id, false);

    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await page.getByRole('link', { name: 'Send an Email' }).click();
    await expect(page).toHaveURL(/\/admin-send-email$/);
    await expect(page.getByRole('heading', { name: 'Mail log', level: 1 })).toBeVisible();

    await page.getByLabel('Search by recipient').fill(owner.email.slice(0, 24));
    await expect(page).toHaveURL(/query=/);
    // The header, the sign-up's confirmation and the receipt.
    await expect(page.getByRole('row')).toHaveCount(3);
    const row = page.getByRole('row').filter({ hasText: 'Pepper is protected' });
    await expect(row).toBeVisible();
    await expect(row).toContainText(owner.email);
    await expect(row).toContainText('Payment receipt');
    // The embedded outbox writes each e-mail as a file: sent within a few seconds by the worker.
    await expect(async () => {
      await page.reload();
      await expect(row).toContainText('Sent', { timeout: 5000 });
    }).toPass({ timeout: 30_000 });
    await expect(page.getByLabel('Search by recipient')).toHaveValue(owner.email.slice(0, 24));
    await shot(page, 'mail-log-desktop');

    await row.getByRole('button', { name: /^Open the e-mail/ }).click();
    const dialog = page.getByRole('dialog', { name: 'Pepper is protected' });
    await expect(dialog.getByLabel('Message text')).toContainText(`Hi Morgan,`);
    await expect(dialog.getByLabel('Message text')).toContainText("Pepper's microchip is now registered until");
    await expect(dialog.getByRole('button', { name: 'Send again' })).toHaveCount(0);
    await shot(page, 'mail-log-message', false);
    await dialog.getByRole('button', { name: 'Close' }).click();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText('Pepper is protected')).toBeVisible();
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - document.documentElement.clientWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    await shot(page, 'mail-log-phone');
  });

  test('an administrator finds the alert e-mails a clinic got by part of its address', async ({ page, request }) => {
    const login = await request.post('/api/v2/Users/login', { data: admin });
    // Seattle: no other journey alerts there, so this alert reaches no other test's clinic.
    const clinic = await addClinic(request, (await login.json()).result.token, '98101', `Pike${Date.now()} Clinic`);
    await lostPetAlert(request, '98101', 'Dog', 'Juniper');

    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await page.getByRole('link', { name: 'Send an Email' }).click();
    // The middle of the address, in capitals: the search matches part of it, whatever its case.
    const part = clinic.email.split('@')[0]!.slice(3).toUpperCase();
    await page.getByLabel('Search by recipient').fill(part);
    await expect(page).toHaveURL(/query=/);
    // Only this clinic's e-mails once the search has answered: nobody else's address holds that part.
    const recipients = () => page.getByRole('rowgroup').nth(1).getByRole('row').evaluateAll((rows) => rows.map((r) => r.querySelector('td')?.textContent ?? ''));
    await expect.poll(async () => {
      const listed = await recipients();
      return listed.length > 0 && listed.every((recipient) => recipient.includes(clinic.email));
    }).toBe(true);
    const row = page.getByRole('row').filter({ hasText: 'Lost dog: Juniper, last seen near Seattle, WA 98101' });
    await expect(row).toContainText(clinic.email);
    await expect(row).toContainText('Lost pet alert');
    await shot(page, 'mail-log-alert-search');
  });
});
