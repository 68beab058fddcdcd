import type { Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { addClinic, expect, lastMailTo, lostPetAlert, mailsTo, signIn, test } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

const ZIP = '80202';

test.describe('[ALERTS][PREFERENCES]', () => {
  test('a clinic narrows its alerts from the link in an alert e-mail, on a phone, and the next alerts honour them; the administrator sees them', async ({
    page,
    browser,
    request,
  }) => {
    test.slow();
    const login = await request.post('/api/v2/Users/login', { data: admin });
    const adminToken: string = (await login.json()).result.token;
    const tag = `Aspen${Date.now()}`;
    const clinic = await addClinic(request, adminToken, ZIP, `${tag} Cat Clinic`);
    const control = await addClinic(request, adminToken, ZIP, `${tag} Any Pet Clinic`);

    await lostPetAlert(request, ZIP, 'Dog', 'Rusty');
    const first = await lastMailTo(clinic.email, 'Lost dog: Rusty, last seen near Denver, CO 80202');
    const link = /Choose which alerts you receive: (\S+)/.exec(first.text!)![1]!;
    expect(String(first.html)).toContain(`href="${link}"`);

    // The clinic's receptionist opens the link on a phone, signed out.
    const phone = await browser.newContext({ viewport: { width: 390, height: 844 }, isMobile: true, hasTouch: true });
    const mobile = await phone.newPage();
    await mobile.goto(new URL(link).pathname);
    await expect(mobile.getByRole('heading', { level: 1, name: 'Lost pet alert preferences' })).toBeVisible();
    await expect(mobile.getByText(`For ${clinic.email}.`)).toBeVisible();
    await expect(mobile.getByRole('checkbox', { name: 'Dog' })).toBeChecked();
    await shot(mobile, 'preferences-phone');

    // Only cats, within 10 miles, 5 a day at most; a radius past 50 is refused with its message first.
    for (const name of ['Bird', 'Dog', 'Ferret', 'Horse', 'Other', 'Rabbit', 'Reptile', 'Small Mammal']) await mobile.getByRole('checkbox', { name }).uncheck();
    await mobile.getByLabel('Radius in miles').fill('80');
    await mobile.getByLabel('Alerts a day at most').fill('5');
    await mobile.getByRole('button', { name: 'Save preferences' }).click();
    await expect(mobile.getByRole('alert')).toContainText('Enter a radius from 1 to 50 miles.');
    await expect(mobile.getByLabel('Radius in miles')).toHaveValue('80');
    await expect(mobile.getByRole('checkbox', { name: 'Cat' })).toBeChecked();
    await expect(mobile.getByRole('checkbox', { name: 'Dog' })).not.toBeChecked();
    await shot(mobile, 'preferences-phone-error');
    await mobile.getByLabel('Radius in miles').fill('10');
    await mobile.getByRole('button', { name: 'Save preferences' }).click();
    await expect(mobile.getByRole('status')).toHaveText('Your alert preferences are saved.');
    await expect(mobile.getByLabel('Radius in miles')).toHaveValue('10');
    await shot(mobile, 'preferences-phone-saved');
    // No wider than the phone.
    expect(await mobile.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await phone.close();

    // On a desktop the same page.
    await page.setViewportSize({ width: 1366, height: 900 });
    await page.goto(new URL(link).pathname);
    await expect(page.getByRole('checkbox', { name: 'Cat' })).toBeChecked();
    await expect(page.getByRole('checkbox', { name: 'Dog' })).not.toBeChecked();
    await shot(page, 'preferences-desktop');

    // The next dog alert reaches the other clinic only; a cat alert after it reaches both.
    await lostPetAlert(request, ZIP, 'Dog', 'Bruno');
    await lastMailTo(control.email, 'Lost dog: Bruno, last seen near Denver, CO 80202');
    await lostPetAlert(request, ZIP, 'Cat', 'Mittens');
    await lastMailTo(clinic.email, 'Lost cat: Mittens, last seen near Denver, CO 80202');
    await lastMailTo(control.email, 'Lost cat: Mittens, last seen near Denver, CO 80202');
    expect((await mailsTo(clinic.email)).map((m) => m.subject)).toEqual([
      'Lost dog: Rusty, last seen near Denver, CO 80202',
      'Lost cat: Mittens, last seen near Denver, CO 80202',
    ]);

    // The administrator's Sites screen shows what the clinic chose and its last alert.
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    await page.goto('/admin-sites');
    await page.getByLabel('Search sites').fill(tag);
    // The two clinics alone once the search has been read.
    await expect(page.getByRole('row')).toHaveCount(3);
    const row = page.getByRole('row').filter({ hasText: clinic.name });
    await expect(row).toContainText('Cat only');
    await expect(row).toContainText('Within 10 mi · 5 a day at most');
    await expect(row).toContainText('No bounces');
    await expect(row).not.toContainText('None yet');
    await expect(page.getByRole('row').filter({ hasText: control.name })).toContainText('Every alert');
    await shot(page, 'sites-preferences-desktop');
    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText('Cat only')).toBeVisible();
    await shot(page, 'sites-preferences-phone');
  });
});
