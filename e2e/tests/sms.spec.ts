import type { Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { createOwner, expect, signIn, test, textsTo } from './fixtures';

const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });

/** A number of the 555-01xx range no other run uses at the same moment. */
const uniqueNumber = (area: string) => {
  const line = String(Date.now() + Math.floor(Math.random() * 1000)).slice(-4);
  return { typed: `(${area}) 555-${line}`, e164: `+1${area}555${line}`, shown: `(${area}) 555 - ${line}` };
};

test.describe('[SMS]', () => {
  test('an owner verifies a mobile number with the texted code, adds a backup contact, and the administrator sees the texts', async ({ page, request, browser }) => {
    const owner = await createOwner(request, 'Casey');
    const mobile = uniqueNumber('314');
    const contactPhone = uniqueNumber('636');

    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await page.goto('/client/profile');
    const card = page.getByRole('region', { name: 'Your Profile' });
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('SMS notifications').check();
    await card.getByLabel('Phone Number').fill(mobile.typed);
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByText('We texted a code to your phone number. It works for 10 minutes.')).toBeVisible();
    await expect(card.getByText('Not verified')).toBeVisible();

    const text = (await textsTo(mobile.e164)).at(-1)!;
    const code = /(\d{6}) is your Pet Registry code/.exec(text)![1]!;
    await shot(page, 'profile-not-verified');
    await card.getByLabel('6-digit code').fill(code);
    await card.getByRole('button', { name: 'Verify' }).click();
    await expect(page.getByText('Your phone number is verified.')).toBeVisible();
    await expect(card.getByText('Verified', { exact: true })).toBeVisible();
    await expect(card.getByText('Not verified')).toHaveCount(0);
    await shot(page, 'profile-verified');

    await page.goto('/client/dashboard');
    await page.getByRole('button', { name: 'Add a contact' }).click();
    const dialog = page.getByRole('dialog', { name: 'Add a contact' });
    await dialog.getByLabel('Name', { exact: true }).fill('Robin Doe');
    await dialog.getByLabel('Phone Number').fill(contactPhone.typed);
    await dialog.getByRole('button', { name: 'Save' }).click();
    const contacts = page.getByRole('list', { name: 'Backup contacts' });
    await expect(contacts.getByText(contactPhone.shown)).toBeVisible();
    await expect(contacts.getByText('Not confirmed')).toBeVisible();
    await expect(contacts.getByRole('button', { name: 'Resend the confirmation text to Robin Doe' })).toBeVisible();
    expect((await textsTo(contactPhone.e164)).at(-1)).toContain('Casey added you as a backup contact for their pets on Pet Registry. Reply YES to confirm, or open http');
    await shot(page, 'dashboard-unconfirmed-contact');

    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    await adminPage.getByRole('link', { name: 'Send an Email' }).click();
    await adminPage.getByLabel('Search by recipient').fill(mobile.typed);
    await expect(adminPage).toHaveURL(/query=/);
    // The header and the code's text.
    await expect(adminPage.getByRole('row')).toHaveCount(2);
    const row = adminPage.getByRole('row').filter({ hasText: 'Text: Phone number code' });
    await expect(row).toContainText(mobile.shown);
    await expect(row).toContainText('[hidden] is your Pet Registry code');
    await expect(row).toContainText('Sent');
    await shot(adminPage, 'mail-log-texts');
    await row.getByRole('button', { name: /^Open the text to/ }).click();
    const message = adminPage.getByRole('dialog', { name: `Text to ${mobile.shown}` });
    await expect(message.getByLabel('Message text')).toHaveText('[hidden] is your Pet Registry code. It works for 10 minutes.');
    await shot(adminPage, 'mail-log-text-opened', false);
    await message.getByRole('button', { name: 'Close' }).click();

    await adminPage.getByLabel('Search by recipient').fill(contactPhone.typed.replace(/\D/g, ''));
    await expect(adminPage.getByRole('row').filter({ hasText: 'Text: Backup contact confirmation' })).toContainText('Casey added you as a backup contact');
    await adminContext.close();
  });
});
