import type { Page } from '@playwright/test';
import { expect, ownerWithPet, payThroughApi, test } from './fixtures';

/** The profile's reminder switches, as the owner reads them. */
const reminderSwitches = {
  renewalReminders: 'E-mail me 30 and 7 days before a yearly plan renews or ends',
  chipScanReminders: "E-mail me each year to ask my vet to scan my pet's chip",
};

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });

test.describe('reminders', () => {
  test('an owner switches the renewal reminders off on the profile, and the choice sticks after a reload', async ({ page, request }) => {
    await page.setViewportSize({ width: 1366, height: 900 });
    const { owner, petId } = await ownerWithPet(page, request);
    await payThroughApi(request, owner, petId, false);

    await page.goto('/client/profile');
    const renewals = page.getByLabel(reminderSwitches.renewalReminders);
    const chipScans = page.getByLabel(reminderSwitches.chipScanReminders);
    // On until the owner says otherwise, and read-only until Edit.
    await expect(renewals).toBeChecked();
    await expect(chipScans).toBeChecked();
    await expect(renewals).toBeDisabled();
    await shot(page, 'profile-reminders-desktop');

    await page.getByRole('button', { name: 'Edit' }).click();
    await renewals.uncheck();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(renewals).not.toBeChecked();

    await page.reload();
    await expect(page.getByRole('heading', { name: 'Your Profile', exact: true })).toBeVisible();
    await expect(renewals).not.toBeChecked();
    await expect(chipScans).toBeChecked();
    const current = await request.get('/api/v2/Users/current-user', { headers: { authorization: `Bearer ${owner.token}` } });
    expect((await current.json()).result.data).toMatchObject({ renewalReminders: false, chipScanReminders: true });

    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByText(reminderSwitches.chipScanReminders).scrollIntoViewIfNeeded();
    // The switches in the phone's view (a full-page capture would paint the sticky toolbar mid-page).
    await shot(page, 'profile-reminders-phone', false);
  });
});
