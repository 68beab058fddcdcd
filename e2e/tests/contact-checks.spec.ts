import type { APIRequestContext, Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { expect, mailsTo, ownerWithPet, signIn, test, textsTo } from './fixtures';

const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

/** A number of the 555-01xx range no other run uses at the same moment. */
const uniqueNumber = (area: string) => {
  const line = String(Date.now() + Math.floor(Math.random() * 1000)).slice(-4);
  return { typed: `(${area}) 555-${line}`, e164: `+1${area}555${line}`, shown: `(${area}) 555 - ${line}` };
};

async function adminToken(request: APIRequestContext): Promise<string> {
  const signedIn = await request.post('/api/v2/Users/login', { data: admin });
  return (await signedIn.json()).result.token;
}

test.describe('[CONTACT CHECKS]', () => {
  test('an owner whose e-mail bounced sees the banner, follows the e-mailed link, and the banner is gone', async ({ page, request }) => {
    // The worker looks for owners to ask every minute.
    test.setTimeout(300_000);
    const { owner } = await ownerWithPet(page, request);
    await page.setViewportSize({ width: 1366, height: 900 });

    // A bounce notice arrives for the sign-up's e-mail, after the mail server took it: support records it in the mail log.
    const headers = { authorization: `Bearer ${await adminToken(request)}` };
    const confirmation = async () => {
      const log = await (await request.get(`/api/v2/admin/mail?${new URLSearchParams({ query: owner.email })}`, { headers })).json();
      return (log.result.items as { id: number; kind: string; status: string }[]).find((m) => m.kind === 'email-confirmation');
    };
    await expect.poll(async () => (await confirmation())?.status, { message: 'the confirmation e-mail sent' }).toBe('sent');
    const bounced = await request.post(`/api/v2/admin/mail/outbox/${(await confirmation())!.id}/bounced`, { headers });
    expect(bounced.status()).toBe(200);

    await page.goto('/client/dashboard');
    const banner = page.getByRole('alert', { name: 'Is this still how we reach you?' });
    await expect(banner.getByText('We cannot reach your e-mail address')).toBeVisible();
    await expect(banner.getByText(`Our e-mails to ${owner.email} bounce.`, { exact: false })).toBeVisible();
    await shot(page, 'dashboard-banner-1366');
    await page.setViewportSize({ width: 390, height: 844 });
    await shot(page, 'dashboard-banner-390');

    // The worker asks at its next sweep; the e-mail is read from the mail files.
    await expect
      .poll(async () => (await mailsTo(owner.email)).filter((m) => m.subject === 'Is this still how we reach you?').length, { timeout: 150_000 })
      .toBeGreaterThan(0);
    const ask = (await mailsTo(owner.email)).filter((m) => m.subject === 'Is this still how we reach you?').at(-1)!;
    expect(ask.text).toContain(`Our last e-mail to ${owner.email} could not be delivered. Is this still how we reach you?`);
    const link = new URL(/https?:\/\/\S+\/contacts\/confirm\?\S+/.exec(ask.text!)![0]);

    await page.goto(`${link.pathname}${link.search}`);
    await expect(page.getByText('Thank you: your contact details are confirmed.')).toBeVisible();
    await shot(page, 'contacts-confirmed-390');
    await page.setViewportSize({ width: 1366, height: 900 });
    await shot(page, 'contacts-confirmed-1366');

    await page.goto('/client/dashboard');
    await expect(page.getByRole('heading', { name: 'Your Pets' })).toBeVisible();
    await expect(page.getByRole('alert', { name: 'Is this still how we reach you?' })).toHaveCount(0);
    // The mailed link proved the address: no e-mail confirmation banner either.
    await expect(page.getByText('Please confirm your e-mail address.')).toHaveCount(0);

    // A tampered link confirms nothing.
    await page.goto(`${link.pathname}?token=${link.searchParams.get('token')!.slice(0, -3)}xyz`);
    await expect(page.getByText('This confirmation link is invalid or has expired.', { exact: false })).toBeVisible();
  });

  test('a backup contact who never confirmed is marked, and both the owner and an administrator resend the text', async ({ page, request, browser }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    const contactPhone = uniqueNumber('636');
    const created = await request.post('/api/v2/Users/backup-contact', {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: 'Robin Doe', phoneNumber: contactPhone.typed },
    });
    expect(created.status()).toBe(200);
    await expect.poll(async () => (await textsTo(contactPhone.e164)).length).toBe(1);

    await page.goto('/client/dashboard');
    const contacts = page.getByRole('list', { name: 'Backup contacts' });
    await expect(contacts.getByText('Not confirmed')).toBeVisible();
    await contacts.getByRole('button', { name: 'Resend the confirmation text to Robin Doe' }).click();
    await expect(page.getByText('We texted the confirmation request again.')).toBeVisible();
    await expect.poll(async () => (await textsTo(contactPhone.e164)).length).toBe(2);

    const adminContext = await browser.newContext({ viewport: { width: 1366, height: 900 } });
    const adminPage = await adminContext.newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    await expect(adminPage.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await adminPage.goto(`/admin/pet/${petId}`);
    const record = adminPage.getByRole('region', { name: 'User Profile' });
    await expect(record.getByText('E-mail last confirmed: never')).toBeVisible();
    await expect(record.getByText(/^Phone last confirmed: never$/)).toBeVisible();
    const backup = adminPage.getByRole('region', { name: 'Backup Contacts' });
    await expect(backup.getByText('Never confirmed')).toBeVisible();
    await shot(adminPage, 'admin-record-1366');
    await backup.getByRole('button', { name: 'Resend the confirmation text to Robin Doe' }).click();
    await expect(adminPage.getByText('We texted the confirmation request again.')).toBeVisible();
    await expect.poll(async () => (await textsTo(contactPhone.e164)).length).toBe(3);
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await shot(adminPage, 'admin-record-390');
    await adminContext.close();
  });
});
