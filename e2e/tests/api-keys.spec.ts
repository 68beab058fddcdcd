import { admin } from '../playwright.config';
import { choose, expect, randomChip, signIn, test } from './fixtures';

test.describe('[ADMIN][API KEYS]', () => {
  test('an administrator issues a key, copies it, a lookup with it answers, and the administrator revokes it', async ({ page, request }) => {
    await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
    const holder = `Riverside Shelter ${Date.now()}`;
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    await page.getByRole('link', { name: 'API Keys', exact: true }).click();
    await expect(page).toHaveURL(/\/admin-api-keys$/);
    await expect(page.getByRole('heading', { name: 'API keys', level: 1 })).toBeVisible();

    await page.getByRole('button', { name: 'Issue a key' }).click();
    const form = page.getByRole('dialog', { name: 'Issue an API key' });
    await form.getByLabel('Holder').fill(holder);
    await form.getByLabel('Requests').fill('500');
    await choose(page, 'Per', 'hour');
    await form.getByRole('button', { name: 'Issue key' }).click();

    const issued = page.getByRole('dialog', { name: `API key for ${holder}` });
    await expect(issued.getByText('it is not shown again', { exact: false })).toBeVisible();
    const shown = (await issued.getByLabel('API key').textContent())!;
    expect(shown).toMatch(/^prk_[\w-]{43}$/);
    await issued.getByRole('button', { name: 'Copy key' }).click();
    await expect(page.getByText('API key copied')).toBeVisible();
    const key = await page.evaluate(() => navigator.clipboard.readText());
    expect(key).toBe(shown);
    await page.screenshot({ path: test.info().outputPath('api-key-issued.png') });
    await issued.getByRole('button', { name: 'Done' }).click();

    // A shelter's system calls the open lookup with the copied key.
    const chip = randomChip('982');
    const answered = await request.get(`/api/v2/public/lookup/${chip}`, { headers: { 'X-Api-Key': key, Origin: 'https://shelter.example.net' } });
    expect(answered.status()).toBe(200);
    expect(answered.headers()['access-control-allow-origin']).toBe('*');
    expect(answered.headers()['x-ratelimit-limit']).toBe('500');
    expect((await answered.json()).result).toMatchObject({ version: 1, chip: { number: chip, manufacturer: 'Allflex / 24PetWatch' }, registered: false, reportUrl: null });

    await page.reload();
    const row = page.getByRole('row').filter({ hasText: holder });
    await expect(row.getByRole('cell', { name: '500 per hour' })).toBeVisible();
    await expect(row.getByText(admin.email)).toBeVisible();
    await expect(row.getByRole('cell', { name: '1', exact: true })).toBeVisible();
    await expect(row.getByText('Active')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('api-keys-list.png'), fullPage: true });

    await row.getByRole('button', { name: `Revoke the key of ${holder}` }).click();
    const confirm = page.getByRole('dialog').filter({ hasText: `Revoke the key of ${holder}?` });
    await confirm.getByRole('button', { name: 'Revoke' }).click();
    await expect(page.getByText('API key revoked.')).toBeVisible();
    await expect(row.getByText('Revoked')).toBeVisible();
    await expect(row.getByRole('button', { name: `Revoke the key of ${holder}` })).toHaveCount(0);

    const refused = await request.get(`/api/v2/public/lookup/${chip}`, { headers: { Authorization: `Bearer ${key}` } });
    expect(refused.status()).toBe(401);
    expect((await refused.json()).errors).toEqual(['This API key has been revoked. Ask the registry for a new one.']);
  });
});
