import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { choose, expect, signIn, test } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at; a page under a dialog does not scroll. */
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });

test.describe('[ADMIN][SITES]', () => {
  test('an administrator adds a site, filters the list, turns its alerts off, and imports a CSV, downloading the result file', async ({ page }) => {
    // A long journey: the list is read again after each search, filter and save.
    test.setTimeout(120_000);
    const word = `Zephyr${Date.now()}`;
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    await page.getByRole('link', { name: 'Sites', exact: true }).click();
    await expect(page.getByRole('heading', { name: 'Sites', level: 1 })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Download template' })).toHaveAttribute('href', '/templates/sites-import-template.csv');
    const template = await page.request.get('/templates/sites-import-template.csv');
    expect((await template.text()).split(/\r?\n/)[0]).toBe('name,kind,email,phoneNumber,address1,city,state,zipCode,url,receivesAlerts');

    // Add a site: the form checks as the server does.
    await page.getByRole('button', { name: 'Add site' }).click();
    const form = page.getByRole('dialog', { name: 'Add site' });
    await form.getByLabel('Name').fill(`${word} Animal Hospital`);
    await choose(page, 'Kind', 'Emergency Vet');
    await form.getByLabel('Phone Number').fill('(314) 555-0142');
    await form.getByLabel('ZIP Code').fill('63101');
    // A website typed as people say it is completed to https://.
    await form.getByLabel('Website').fill(`www.${word.toLowerCase()}.com`);
    await form.getByLabel('Receives alerts').check();
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form.getByText('Add an email address so this site can receive alerts.')).toBeVisible();
    await form.getByLabel('Email').fill(`${word}@example.org`);
    await shot(page, 'sites-add-desktop', false);
    await form.getByRole('button', { name: 'Save' }).click();
    await expect(form).toBeHidden();
    const saved = page.getByText('Record saved successfully');
    await expect(saved).toBeVisible();

    await page.getByLabel('Search sites').fill(word);
    const row = page.getByRole('row').filter({ hasText: `${word} Animal Hospital` });
    await expect(row).toBeVisible();
    await expect(row).toContainText('Saint Louis, MO 63101');
    await expect(row).toContainText('Emergency Vet');
    await expect(row).toContainText('Administrator');
    await shot(page, 'sites-desktop');

    // The filter narrows the list on the server, and is kept in the address.
    await choose(page, 'Show', 'Inactive');
    await expect(page).toHaveURL(/filter=inactive/);
    await expect(page.getByText('No sites found')).toBeVisible();
    await choose(page, 'Show', 'Active');
    await expect(row).toBeVisible();
    await page.getByLabel('Search sites').fill('');
    // The emptied search runs once typing pauses; choosing meanwhile raced the list it re-renders.
    await expect(page).not.toHaveURL(/query=/);
    await choose(page, 'Show', 'Samples');
    await expect(page.getByRole('row').filter({ hasText: 'Sample Animal Shelter' }).first()).toBeVisible();
    await expect(page.getByRole('row').filter({ hasText: `${word} Animal Hospital` })).toHaveCount(0);
    await shot(page, 'sites-filter-desktop', false);
    await choose(page, 'Show', 'All sites');
    await expect(page).not.toHaveURL(/filter=/);
    await page.getByLabel('Search sites').fill(word);
    await expect(row).toBeVisible();
    await page.getByRole('button', { name: `Edit ${word} Animal Hospital` }).click();
    const edit = page.getByRole('dialog', { name: 'Edit site' });
    await expect(edit.getByLabel('Website')).toHaveValue(`https://www.${word.toLowerCase()}.com`);
    await edit.getByRole('button', { name: 'Cancel' }).click();
    await expect(edit).toBeHidden();

    // Alerts off, saved at once: a reload still shows them off.
    const alerts = row.getByRole('switch', { name: `Receives alerts: ${word} Animal Hospital` });
    await expect(alerts).toBeChecked();
    // The add's own "saved" note (seen above) goes first: the same note shown again while it is up is not repeated.
    await expect(saved).toBeHidden();
    await alerts.uncheck();
    await expect(saved).toBeVisible();
    await page.reload();
    await expect(page.getByRole('switch', { name: `Receives alerts: ${word} Animal Hospital` })).not.toBeChecked();

    // Import a file with a good row and a bad one.
    const file = test.info().outputPath('sites.csv');
    writeFileSync(
      file,
      [
        'name,kind,email,phoneNumber,address1,city,state,zipCode,url,receivesAlerts',
        `${word} Rescue,Rescue,rescue@${word.toLowerCase()}.example.org,,12 Olive St,,,63103,,yes`,
        `${word} Dental,Dentist,,,,,,63101,,no`,
      ].join('\r\n'),
    );
    await page.getByRole('button', { name: 'Import CSV' }).click();
    const importer = page.getByRole('dialog', { name: 'Import sites from a CSV file' });
    await importer.getByLabel('CSV file').setInputFiles(file);
    await expect(importer.getByText('sites.csv')).toBeVisible();
    // The result file downloads at once, as the pet upload's does, and stays in the dialog to download again.
    const [download] = await Promise.all([page.waitForEvent('download'), importer.getByRole('button', { name: 'Upload' }).click()]);
    await expect(importer.getByText('1 site added, 0 updated, 0 unchanged, 1 row with errors')).toBeVisible();
    await expect(importer.getByRole('link', { name: 'Result file' })).toBeVisible();
    await shot(page, 'sites-import-desktop', false);
    expect(download.suggestedFilename()).toMatch(/^sites-import-result-.+\.csv$/);
    const result = readFileSync(await download.path(), 'utf8').replace(/^\ufeff/, '').split('\r\n');
    expect(result[0]).toBe('name,kind,email,phoneNumber,address1,city,state,zipCode,url,receivesAlerts,status,reason');
    expect(result[1]).toMatch(new RegExp(`^${word} Rescue,.*,created,$`));
    expect(result[2]).toMatch(new RegExp(`^${word} Dental,Dentist,.*,error,Choose the kind of place from the list\\.$`));
    await importer.getByRole('button', { name: 'Close' }).click();

    await expect(page.getByRole('row').filter({ hasText: `${word} Rescue` })).toContainText('CSV import');
    await expect(page.getByRole('row').filter({ hasText: `${word} Dental` })).toHaveCount(0);

    // Remove all samples asks first.
    await page.getByRole('button', { name: 'Remove all samples' }).click();
    const confirm = page.getByRole('dialog', { name: 'Remove all samples?' });
    await expect(confirm).toBeVisible();
    await confirm.getByRole('button', { name: 'Cancel' }).click();
    await expect(confirm).toBeHidden();

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByRole('row').filter({ hasText: `${word} Rescue` })).toBeVisible();
    await shot(page, 'sites-phone');
    await page.getByRole('button', { name: `Edit ${word} Rescue` }).click();
    await expect(page.getByRole('dialog', { name: 'Edit site' }).getByLabel('Email')).toHaveValue(`rescue@${word.toLowerCase()}.example.org`);
    await shot(page, 'sites-edit-phone', false);
  });
});
