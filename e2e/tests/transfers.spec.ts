import type { Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { createOwner, expect, lastMailTo, ownerWithPet, signIn, test, uniqueEmail } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });

const sameOrigin = (link: string) => link.replace(/^http:\/\/localhost:\d+/, '');

/** Both widths a screen is looked at: desktop 1366 and phone 390, nothing wider than the phone. */
async function atBothWidths(page: Page, name: string) {
  await page.setViewportSize({ width: 1366, height: 900 });
  await shot(page, `${name}-1366`);
  await page.setViewportSize({ width: 390, height: 844 });
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  await shot(page, `${name}-390`);
  await page.setViewportSize({ width: 1366, height: 900 });
}

test.describe('[TRANSFERS] owners hand a pet on themselves', () => {
  test('an owner offers a pet to a new address; the new owner accepts from the e-mail in another browser and the pet changes lists', async ({
    page,
    request,
    browser,
  }) => {
    test.slow();
    const { owner, petId } = await ownerWithPet(page, request);
    const newOwner = uniqueEmail('new-owner');

    // The pet page offers the transfer: the e-mail twice.
    await page.goto(`/client/pet/update/${petId}`);
    const card = page.getByRole('region', { name: 'Transfer to a new owner' });
    await card.getByRole('button', { name: 'Transfer Juniper' }).click();
    const dialog = page.getByRole('dialog', { name: 'Transfer Juniper' });
    await dialog.getByLabel("New owner's email", { exact: true }).fill(newOwner);
    await dialog.getByLabel("Confirm new owner's email").fill(`x${newOwner}`);
    await dialog.getByRole('button', { name: 'Send offer' }).click();
    await expect(dialog.getByText("Emails don't match")).toBeVisible();
    await dialog.getByLabel("Confirm new owner's email").fill(newOwner);
    await shot(page, 'offer-dialog', false);
    await dialog.getByRole('button', { name: 'Send offer' }).click();
    await expect(page.getByText('We emailed the new owner. They have 7 days to accept.')).toBeVisible();
    await expect(card.getByText(`Waiting for ${newOwner} to accept`)).toBeVisible();
    await expect(card.getByRole('button', { name: 'Cancel transfer' })).toBeVisible();
    await atBothWidths(page, 'pet-page-pending');
    await lastMailTo(owner.email, `You offered Juniper to ${newOwner}`);

    // The new owner, in another browser, opens the invitation: it names the pet and the owner's first name.
    const invitation = await lastMailTo(newOwner, 'Avery wants to transfer Juniper to you');
    expect(invitation.text).toContain("Avery asked our pet registry to transfer Juniper's registration, microchip and protection to you.");
    const newOwnerPage = await (await browser.newContext()).newPage();
    await newOwnerPage.goto(sameOrigin(invitation.text!.match(/http:\/\/\S+/)![0]));
    await expect(newOwnerPage.getByRole('heading', { name: 'Avery wants to transfer Juniper to you' })).toBeVisible();
    await atBothWidths(newOwnerPage, 'offer-page');
    await newOwnerPage.getByRole('button', { name: 'Accept Juniper' }).click();

    // No account had this address: the invitation's page asks a password, the names and the phone.
    await expect(newOwnerPage.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
    await newOwnerPage.getByLabel('First Name').fill('Robin');
    await newOwnerPage.getByLabel('Last Name').fill('Hale');
    await newOwnerPage.getByLabel('Mobile Phone').fill('(314) 555-0188');
    await newOwnerPage.getByLabel('Password', { exact: true }).fill('Welcome#Home1');
    await newOwnerPage.getByLabel('Password (Confirm)').fill('Welcome#Home1');
    await newOwnerPage.getByRole('button', { name: 'Choose your password' }).click();
    await expect(newOwnerPage).toHaveURL(/\/sign-in$/);
    await signIn(newOwnerPage, newOwner, 'Welcome#Home1');
    await expect(newOwnerPage.getByRole('button', { name: /^Hi, Robin/ })).toBeVisible();
    await newOwnerPage.goto('/client/pet');
    await expect(newOwnerPage.getByText('Juniper')).toBeVisible();

    // The pet left the previous owner's list at once; both were told.
    await page.goto('/client/pet');
    await expect(page.getByText('No pets yet')).toBeVisible();
    await expect(page.getByText('Juniper')).toBeHidden();
    await lastMailTo(owner.email, 'Juniper now belongs to its new owner');
    await lastMailTo(newOwner, 'Juniper is now registered to you');
  });

  test('an owner with an account accepts on the dashboard; a cancelled offer disappears from it', async ({ page, request, browser }) => {
    test.slow();
    const { petId } = await ownerWithPet(page, request);
    const next = await createOwner(request, 'Robin');
    const offer = () => request.post(`/api/v2/Pet/${petId}/transfer`, { headers: { authorization: `Bearer ${ownerToken}` }, data: { email: next.email } });
    // The owner's token, read from the signed-in page.
    const ownerToken = await page.evaluate(() => localStorage.getItem('jwt_access_token'));
    expect((await offer()).status()).toBe(200);

    const nextPage = await (await browser.newContext()).newPage();
    await nextPage.goto('/sign-in');
    await signIn(nextPage, next.email, next.password);
    // Offers to an address are answered by an account that proved it: the sign-up's link.
    const confirmation = await lastMailTo(next.email, 'Confirm your email address');
    await nextPage.goto(confirmation.text!.match(/http:\/\/\S+/)![0].replace(/^http:\/\/localhost:\d+/, ''));
    await expect(nextPage.getByText('Your email address is confirmed.')).toBeVisible();
    await nextPage.goto('/client/dashboard');
    const offers = nextPage.getByRole('region', { name: 'Pets offered to you' });
    await expect(offers.getByText('Avery wants to transfer Juniper to you')).toBeVisible();

    // The owner cancels from the pet page: the offer leaves the dashboard.
    await page.goto(`/client/pet/update/${petId}`);
    await page.getByRole('button', { name: 'Cancel transfer' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Cancel transfer' }).click();
    await expect(page.getByText('The transfer was cancelled.')).toBeVisible();
    await expect(page.getByRole('button', { name: 'Transfer Juniper' })).toBeVisible();
    await nextPage.reload();
    await expect(nextPage.getByRole('button', { name: /^Hi, Robin/ })).toBeVisible();
    await expect(offers).toBeHidden();

    // Offered again, accepted on the dashboard.
    expect((await offer()).status()).toBe(200);
    await nextPage.reload();
    await expect(offers.getByText('Avery wants to transfer Juniper to you')).toBeVisible();
    await atBothWidths(nextPage, 'dashboard-offer');
    await offers.getByRole('button', { name: 'Accept' }).click();
    const accept = nextPage.getByRole('dialog', { name: 'Accept Juniper' });
    await shot(nextPage, 'accept-dialog', false);
    await accept.getByRole('button', { name: 'Accept Juniper' }).click();
    await expect(nextPage.getByText('The pet is now registered to you.')).toBeVisible();
    await expect(offers).toBeHidden();
    await expect(nextPage.getByRole('region', { name: 'Your Pets' }).getByText('Juniper')).toBeVisible();
    await page.goto('/client/pet');
    await expect(page.getByText('No pets yet')).toBeVisible();
  });

  test("an administrator's dispute hold shows on the record with who and why, and stops the owner's transfer", async ({ page, request, browser }) => {
    test.slow();
    const { petId } = await ownerWithPet(page, request);
    const adminPage = await (await browser.newContext()).newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    // Signed in before going on: a navigation while the sign-in is still answering would drop it.
    await expect(adminPage).toHaveURL(/\/admin-dashboard$/);
    await adminPage.goto(`/admin/pet/${petId}`);
    await adminPage.getByRole('button', { name: 'Dispute hold' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Dispute hold on Juniper' });
    await dialog.getByLabel('Reason').fill('Two people claim Juniper');
    await dialog.getByRole('button', { name: 'Set hold' }).click();
    await expect(adminPage.getByText('Transfers of this pet are on hold.')).toBeVisible();
    await expect(adminPage.getByText(/Set by .+: Two people claim Juniper\./)).toBeVisible();
    await atBothWidths(adminPage, 'admin-hold');

    await page.goto(`/client/pet/update/${petId}`);
    await page.getByRole('button', { name: 'Transfer Juniper' }).click();
    const offer = page.getByRole('dialog', { name: 'Transfer Juniper' });
    const email = uniqueEmail('held');
    await offer.getByLabel("New owner's email", { exact: true }).fill(email);
    await offer.getByLabel("Confirm new owner's email").fill(email);
    await offer.getByRole('button', { name: 'Send offer' }).click();
    await expect(offer.getByText("This pet's transfers are on hold while our support team looks into it. Please contact our support.")).toBeVisible();

    await adminPage.getByRole('button', { name: 'Lift hold' }).click();
    await expect(adminPage.getByText('The hold was lifted.')).toBeVisible();
    await offer.getByRole('button', { name: 'Send offer' }).click();
    await expect(page.getByText('We emailed the new owner. They have 7 days to accept.')).toBeVisible();
  });
});
