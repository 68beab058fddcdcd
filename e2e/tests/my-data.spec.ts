import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { expect } from '@playwright/test';
import { ownerWithPet, signIn, test } from './fixtures';

/** Renders the first page of a PDF to a PNG to look at, where poppler's pdftoppm is installed. */
function pdfToPng(pdf: string, png: string) {
  if (!existsSync('/usr/bin/pdftoppm')) return;
  execFileSync('/usr/bin/pdftoppm', ['-png', '-r', '80', '-singlefile', pdf, png.replace(/\.png$/, '')]);
}

test.describe('[OWNER][MY_DATA]', () => {
  test('an owner downloads the export and the printable card, then closes the account', async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    const headers = { authorization: `Bearer ${owner.token}` };
    const pet = (await (await request.get(`/api/v2/Pet/${petId}`, { headers })).json()).result;

    await page.goto('/client/profile');
    const card = page.getByRole('region', { name: 'Your Data' });
    await expect(card).toBeVisible();
    await expect(card).toContainText("card's last 4 digits and the payment provider's references");
    await page.screenshot({ path: '/tmp/mydata-profile.png', fullPage: true });

    const [exported] = await Promise.all([page.waitForEvent('download'), card.getByRole('button', { name: 'Download my data' }).click()]);
    expect(exported.suggestedFilename()).toMatch(/^pet-registry-data-\d+-\d{4}-\d{2}-\d{2}\.json$/);
    const file = JSON.parse(readFileSync(await exported.path(), 'utf8'));
    expect(file.profile).toMatchObject({ email: owner.email, firstName: 'Avery' });
    expect(file.pets).toEqual([expect.objectContaining({ name: 'Juniper', chips: [expect.objectContaining({ chipId: pet.microchip1 })] })]);

    await page.goto(`/client/pet/update/${petId}`);
    const printable = page.getByRole('region', { name: 'Printable Card' });
    const [a6] = await Promise.all([page.waitForEvent('download'), printable.getByRole('button', { name: 'A6 card' }).click()]);
    expect(a6.suggestedFilename()).toBe('Juniper-card-a6.pdf');
    const a6Path = '/tmp/mydata-card-a6.pdf';
    await a6.saveAs(a6Path);
    expect(readFileSync(a6Path).subarray(0, 5).toString()).toBe('%PDF-');
    pdfToPng(a6Path, '/tmp/mydata-card-a6.png');
    const [letter] = await Promise.all([page.waitForEvent('download'), printable.getByRole('button', { name: 'Letter page' }).click()]);
    expect(letter.suggestedFilename()).toBe('Juniper-card-letter.pdf');
    await page.screenshot({ path: '/tmp/mydata-pet.png', fullPage: true });

    // The public profile is there while the account is.
    await page.goto(`/pet-profiles/${pet.publicId}`);
    await expect(page.getByText('Juniper').first()).toBeVisible();

    await page.goto('/client/profile');
    await page.getByRole('button', { name: 'Close my account' }).click();
    const dialog = page.getByRole('dialog', { name: 'Close your account?' });
    await dialog.getByLabel('Password', { exact: true }).fill('Wrong#Pass99');
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expect(dialog.getByText('Current password is incorrect')).toBeVisible();
    await page.screenshot({ path: '/tmp/mydata-close-dialog.png' });
    await dialog.getByLabel('Password', { exact: true }).fill(owner.password);
    await dialog.getByRole('button', { name: 'Close my account' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await expect(page.getByText('Your account is closed. We are sorry to see you go.')).toBeVisible();

    // The address signs in no more; the profile and the pet's public page are gone.
    await signIn(page, owner.email, owner.password);
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await page.goto('/client/profile');
    await expect(page).toHaveURL(/\/sign-in/);
    await page.goto(`/pet-profiles/${pet.publicId}`);
    await expect(page.getByRole('heading', { name: "We couldn't find this pet profile" })).toBeVisible();
    expect((await request.get(`/api/v2/pet/pet-profiles/${pet.publicId}`)).status()).toBe(404);
  });

  test('the data card and the closing dialog on a phone', async ({ page, request }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await ownerWithPet(page, request);
    await page.goto('/client/profile');
    const card = page.getByRole('region', { name: 'Your Data' });
    await card.scrollIntoViewIfNeeded();
    await expect(card.getByRole('button', { name: 'Download my data' })).toBeVisible();
    await card.screenshot({ path: '/tmp/mydata-card-390.png' });
    await card.getByRole('button', { name: 'Close my account' }).click();
    await expect(page.getByRole('dialog', { name: 'Close your account?' })).toBeVisible();
    await page.screenshot({ path: '/tmp/mydata-dialog-390.png' });
  });
});
