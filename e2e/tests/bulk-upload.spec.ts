import { readFileSync, writeFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { createOwner, expect, lastMailTo, mailsTo, randomChip, signIn, test, uniqueEmail } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage: true });

const columns =
  'petName,species,breed,sex,dob,chipId,chipBrand,weightLbs,notes,ownerFirstName,ownerLastName,ownerEmail,ownerPhone,ownerAddress1,ownerCity,ownerState,ownerZip';

/** The file's lines, its byte-order mark dropped. */
const lines = (path: string) => readFileSync(path, 'utf8').replace(/^\ufeff/, '').trimEnd().split(/\r?\n/);

test.describe('[ADMIN][BULK UPLOAD]', () => {
  test('an administrator downloads the template, uploads a shelter CSV and opens the result file', async ({ page }) => {
    const chip = randomChip();
    const shelter = uniqueEmail('shelter');
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    await page.getByRole('link', { name: 'Pet Upload', exact: true }).click();
    await expect(page).toHaveURL(/\/bulk-pet-upload$/);
    await expect(page.getByRole('heading', { name: 'Pet Upload', level: 1 })).toBeVisible();

    // The template is a file the site serves.
    const [template] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download template' }).click()]);
    expect(template.suggestedFilename()).toBe('bulk-pet-upload-template.csv');
    const [, example] = lines(await template.path());
    expect(lines(await template.path())).toEqual([columns, example]);
    expect(example).toMatch(/^Biscuit,Dog,/);
    // The allowed values: the species, sexes, chip brands and states a file may name.
    const [allowed] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Download allowed values' }).click()]);
    expect(allowed.suggestedFilename()).toMatch(/^bulk-pet-upload-allowed-values-.+\.csv$/);
    const values = lines(await allowed.path());
    expect(values[0]).toBe('species,sex,chipBrand,ownerState,state name');
    expect(values.some((line) => /^[^,]*,Male,/.test(line))).toBe(true);
    expect(values.some((line) => line.endsWith(',MO,Missouri'))).toBe(true);

    // The e-mail waits for a file, Submit for both; a file that is no CSV is refused.
    const emailField = page.getByLabel('Shelter email');
    const submit = page.getByRole('button', { name: 'Submit' });
    await expect(emailField).toBeDisabled();
    await expect(submit).toBeDisabled();
    const notes = test.info().outputPath('notes.txt');
    writeFileSync(notes, 'not a spreadsheet');
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(notes);
    await expect(page.getByText('Please select a CSV file.')).toBeVisible();
    await expect(emailField).toBeDisabled();

    const file = test.info().outputPath('shelter-pets.csv');
    writeFileSync(
      file,
      [
        columns,
        example,
        `Biscuit,Dog,Labrador Retriever,Male,03/14/2022,${chip},HomeAgain,52,Friendly,,,,,,,,`,
        'Smaug,Dragon,,,2020-01-01,,,,=HYPERLINK("http://evil.example"),,,,,,,,',
        `Rex,Dog,Beagle,Male,x,,,,,,,,,,,ZZ,`,
      ].join('\r\n'),
    );
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(file);
    await expect(page.getByText('shelter-pets.csv')).toBeVisible();
    await expect(page.getByText('Please select a CSV file.')).toBeHidden();
    await expect(emailField).toBeEnabled();
    await emailField.fill('shelter@nowhere');
    await emailField.blur();
    await expect(page.getByText('Please enter a valid email address')).toBeVisible();
    await expect(submit).toBeDisabled();
    await emailField.fill(shelter);
    await expect(submit).toBeEnabled();

    // The answer downloads as a file: the rows with their status and reason.
    const [download] = await Promise.all([page.waitForEvent('download'), submit.click()]);
    expect(download.suggestedFilename()).toMatch(/^bulk-pet-upload-result-.+\.csv$/);
    const result = lines(await download.path());
    expect(result[0]).toBe(`${columns},status,reason`);
    expect(result[1]).toMatch(/^Biscuit,Dog,.*,skipped,The template's example row: not registered\.$/);
    expect(result[2]).toMatch(new RegExp(`^Biscuit,Dog,Labrador Retriever,Male,03/14/2022,${chip},.*,created,$`));
    expect(result[3]).toMatch(/^Smaug,Dragon,.*,"'=HYPERLINK\(""http:\/\/evil\.example""\)",.*,error,This species is not one the registry knows\.$/);
    // Each reason ends where the next begins; an unknown state is the row's error.
    expect(result[4]).toMatch(/^Rex,.*,error,[^;]+; Choose a state from the list\.$/);
    await expect(page.getByText('1 pet registered, 1 skipped (already registered), 2 rows with errors')).toBeVisible();
    await expect(page.getByRole('link', { name: 'Result file' })).toBeVisible();
    await shot(page, 'bulk-upload-desktop');

    // The shelter's new account is invited to set its password.
    const invitation = await lastMailTo(shelter, 'Your pet registry account is ready');
    expect(invitation.text).toContain('/reset-password?email=');

    await page.setViewportSize({ width: 390, height: 844 });
    await expect(page.getByText('1 pet registered, 1 skipped (already registered), 2 rows with errors')).toBeVisible();
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(page, 'bulk-upload-phone');
  });
  test("an upload naming a customer's account as the shelter adds the pets to it, and its holder gets one e-mail listing them", async ({ page, request }) => {
    const customer = await createOwner(request, 'Casey');
    const chip = randomChip();
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    await page.goto('/bulk-pet-upload');
    await expect(page.getByRole('heading', { name: 'Pet Upload', level: 1 })).toBeVisible();

    const file = test.info().outputPath('customer-pets.csv');
    writeFileSync(
      file,
      [columns, `Pickles,Dog,Beagle,Female,05/01/2021,${chip},HomeAgain,24,,,,,,,,,`, 'Noodle,Cat,,Male,2023-02-10,,,,Shy,,,,,,,,'].join('\r\n'),
    );
    await page.getByLabel('CSV file', { exact: true }).setInputFiles(file);
    await expect(page.getByText('customer-pets.csv')).toBeVisible();
    await page.getByLabel('Shelter email').fill(customer.email);
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Submit' }).click()]);
    const result = lines(await download.path());
    expect(result.slice(1)).toEqual([expect.stringMatching(/^Pickles,.*,created,$/), expect.stringMatching(/^Noodle,.*,created,$/)]);
    await expect(page.getByText('2 pets registered, 0 skipped (already registered), 0 rows with errors')).toBeVisible();
    await shot(page, 'bulk-upload-customer');

    // One e-mail, naming both pets; the account holder chose a password long ago and is not invited again.
    const told = await lastMailTo(customer.email, 'Pets were registered to your account');
    expect(told.text).toContain('Hi Casey,');
    expect(told.text).toContain('Our support team uploaded a list of pets naming your account as the shelter, and registered these pets to it: Pickles, Noodle.');
    const subjects = (await mailsTo(customer.email)).map((mail) => mail.subject);
    expect(subjects.filter((subject) => subject === 'Pets were registered to your account')).toHaveLength(1);
    expect(subjects).not.toContain('Your pet registry account is ready');

    // The pets are in the customer's account.
    const theirs = await request.get('/api/v2/pet/user-pets', { headers: { authorization: `Bearer ${customer.token}` } });
    expect(((await theirs.json()).result as { name: string }[]).map((pet) => pet.name).sort()).toEqual(['Noodle', 'Pickles']);
  });
});
