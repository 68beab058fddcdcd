import type { Page } from '@playwright/test';
import { expect, ownerWithPet, payThroughApi, randomChip, test } from './fixtures';

async function fillCard(page: Page, cardNumber: string) {
  await page.getByLabel('Name on card').fill('Avery Rivera');
  await page.getByLabel('Card number').fill(cardNumber);
  await page.getByLabel('Expiry (MM/YY)').fill('12/39');
  await page.getByLabel('CVC').fill('123');
}

test.describe('[PAYMENTS]', () => {
  test('an owner buys yearly protection on the portal checkout and sees it registered', async ({ page, request }) => {
    const { petId } = await ownerWithPet(page, request);
    await page.goto(`/client/pet/checkout/${petId}`);
    await expect(page.getByText('Out of Stock')).toBeVisible();
    await expect(page.getByRole('checkbox', { name: /QR collar tag/ })).toBeDisabled();
    await page.screenshot({ path: test.info().outputPath('plans.png'), fullPage: true });
    await page.getByRole('button', { name: 'Choose Yearly Protection' }).click();

    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await expect(page.getByRole('heading', { name: 'Checkout' })).toBeVisible();
    await fillCard(page, '4000 0000 0000 0002');
    await page.getByRole('button', { name: 'Pay $19.95' }).click();
    await expect(page.getByText('Your card was declined. Please use another card.')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('checkout-declined.png'), fullPage: true });

    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $19.95' }).click();
    await expect(page).toHaveURL(/\/pet-registration-complete\?session_id=cs_local_/);
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('thank-you.png'), fullPage: true });
    await page.getByRole('link', { name: 'Go to dashboard' }).click();

    await expect(page.getByRole('link', { name: 'Member Perks' }).first()).toBeVisible();
    const tile = page.getByRole('list', { name: 'Pets' }).getByRole('link', { name: /Juniper/ });
    await expect(tile).not.toHaveAccessibleName(/Registration Incomplete|Chip Deactivated/);
    await tile.click();
    await expect(page).toHaveURL(new RegExp(`/client/pet/update/${petId}$`));
    await expect(page.getByText(/Registered Until [A-Z][a-z]{2} \d{2}, \d{4}/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upgrade to Lifetime' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('pet-registered.png'), fullPage: true });

    // Backing out of the upgrade returns to the pet's page, still yearly.
    await page.getByRole('button', { name: 'Upgrade to Lifetime' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect(page).toHaveURL(new RegExp(`/client/pet/update/${petId}$`));
    await expect(page.getByText(/Registered Until [A-Z][a-z]{2} \d{2}, \d{4}/)).toBeVisible();

    // Paid today: the whole year is unused, and its price comes off lifetime.
    await page.getByRole('button', { name: 'Upgrade to Lifetime' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByText('Lifetime', { exact: true })).toBeVisible();

    await page.goto('/client/member-perks');
    await expect(page.getByRole('heading', { name: 'Member Perks' })).toBeVisible();
    await expect(page.getByText('30% off GPS collars')).toBeVisible();
  });

  test('a Save This Life chip checks out with coupon STL2025 at 75% off', async ({ page, request }) => {
    const { petId } = await ownerWithPet(page, request, randomChip('900164'));
    await page.goto(`/client/pet/checkout/${petId}`);
    await expect(page.getByText('Coupon STL2025 applied')).toBeVisible();
    await page.getByRole('button', { name: 'Choose Lifetime Protection' }).click();
    await expect(page.getByRole('button', { name: 'Pay $12.49' })).toBeVisible();
    await fillCard(page, '4242424242424242');
    await page.getByRole('button', { name: 'Pay $12.49' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();
    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByText('Lifetime', { exact: true })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Upgrade to Lifetime' })).toHaveCount(0);
  });

  test('the billing page lists the plan and payment and cancels the renewal', async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    await page.goto(`/client/pet/checkout/${petId}`);
    await page.getByRole('button', { name: 'Choose Yearly Protection' }).click();
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $19.95' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();

    const auth = { authorization: `Bearer ${owner.token}` };
    const me = (await (await request.get('/api/v2/Users/current-user', { headers: auth })).json()).result;
    const link = await request.get(`/api/v2/utilities/stripe-dashboard?uid=${me.id}`, { headers: auth });
    expect(new URL((await link.json()).result).pathname).toBe('/billing');

    await page.goto('/billing');
    await expect(page.getByRole('table', { name: 'Payments' }).getByText('•••• 4242').or(page.getByRole('table', { name: 'Payments' }).getByText('4242'))).toBeVisible();
    await page.getByRole('button', { name: 'Cancel renewal for Juniper' }).click();
    await page.getByRole('dialog', { name: 'Cancel renewal?' }).getByRole('button', { name: 'Cancel renewal' }).click();
    await expect(page.getByText('Renewal canceled').first()).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('billing.png'), fullPage: true });
  });

  test('the billing tables fit a laptop and a phone, as cards on the phone', async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    await payThroughApi(request, owner, petId, false);
    for (const [width, height] of [
      [1366, 768],
      [390, 844],
    ] as const) {
      await page.setViewportSize({ width, height });
      await page.goto('/billing');
      const plans = page.getByRole('table', { name: 'Protection plans' });
      await expect(plans.getByText('Juniper')).toBeVisible();
      await expect(page.getByRole('table', { name: 'Payments' }).getByText('•••• 4242')).toBeVisible();
      await expect(page.getByRole('button', { name: 'Cancel renewal for Juniper' })).toBeVisible();
      // Nothing wider than the screen, and no table scrolling sideways inside its card.
      const overflow = await page.evaluate(() => ({
        page: document.documentElement.scrollWidth - window.innerWidth,
        tables: [...document.querySelectorAll('.MuiTableContainer-root')].map((c) => c.scrollWidth - c.clientWidth),
      }));
      expect(overflow).toEqual({ page: expect.any(Number), tables: [0, 0] });
      expect(overflow.page).toBeLessThanOrEqual(0);
      // On the phone each row is a card whose cells name their column.
      await expect(plans.locator('td[data-label="Pet"]')).toHaveCSS('display', width > 600 ? 'table-cell' : 'flex');
      await page.screenshot({ path: test.info().outputPath(`billing-${width}.png`), fullPage: true });
    }
  });

  test("a covered pet's plan page offers only what it lacks: the lifetime upgrade, then nothing", async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    await payThroughApi(request, owner, petId, false);

    await page.goto(`/client/pet/checkout/${petId}`);
    await expect(page.getByText(/^Registered Until [A-Z][a-z]{2} \d{2}, \d{4}$/)).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose Yearly Protection' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Choose Lifetime Protection' })).toHaveCount(0);
    await expect(page.getByRole('link', { name: 'Back to Juniper' })).toHaveAttribute('href', `/client/pet/update/${petId}`);
    // The yearly plan was paid today: its unused part (all of it) comes off the lifetime price.
    const upgrade = page.getByRole('region', { name: 'Your upgrade' });
    await expect(upgrade.getByText('Credit for unused yearly cover')).toBeVisible();
    await expect(upgrade.getByText('-$19.95')).toBeVisible();
    await expect(upgrade.getByText('$30.00')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('plans-yearly-covered.png'), fullPage: true });
    await page.getByRole('button', { name: 'Upgrade to Lifetime' }).click();
    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await expect(page.getByText('Credit for unused yearly cover')).toBeVisible();
    await expect(page.getByText('−$19.95')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('checkout-upgrade-credit.png'), fullPage: true });
    await fillCard(page, '4242 4242 4242 4242');
    await page.getByRole('button', { name: 'Pay $30.00' }).click();
    await expect(page.getByRole('heading', { name: 'Thank You' })).toBeVisible();

    for (const path of [`/client/pet/checkout/${petId}`, `/pet-subscription/${petId}`]) {
      await page.goto(path);
      await expect(page.getByText('Juniper is covered for life')).toBeVisible();
      await expect(page.getByRole('button', { name: /^Choose |Upgrade to Lifetime/ })).toHaveCount(0);
    }
    await page.screenshot({ path: test.info().outputPath('plans-lifetime-covered.png'), fullPage: true });
    await page.getByRole('link', { name: 'Back to Juniper' }).click();
    await expect(page).toHaveURL(new RegExp(`/client/pet/update/${petId}$`));
    await expect(page.getByText('Lifetime', { exact: true })).toBeVisible();
  });

  test('an unregistered pet offers Choose a plan; a pet without a chip, Add a microchip', async ({ page, request }) => {
    const { owner, petId } = await ownerWithPet(page, request);
    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByText('Not Registered', { exact: true })).toBeVisible();
    // Spec 2.4: a chip that is not lifetime always offers the upgrade, here beside Choose a plan.
    await expect(page.getByRole('button', { name: 'Upgrade to Lifetime' })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('pet-not-registered.png'), fullPage: true });
    await page.getByRole('link', { name: 'Choose a plan' }).click();
    await expect(page).toHaveURL(new RegExp(`/client/pet/checkout/${petId}$`));
    await expect(page.getByRole('button', { name: 'Choose Yearly Protection' })).toBeVisible();
    await expect(page.getByRole('button', { name: 'Choose Lifetime Protection' })).toBeVisible();

    const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
    const created = await request.post('/api/v2/Pet/create-pet', {
      headers: { authorization: `Bearer ${owner.token}` },
      data: { name: 'Pebble', speciesId: data.species[0].id },
    });
    const unchipped: number = (await created.json()).result.pet.id;
    await page.goto(`/client/pet/update/${unchipped}`);
    await expect(page.getByRole('button', { name: 'Add a microchip' })).toBeVisible();
    await expect(page.getByRole('link', { name: 'Choose a plan' })).toHaveCount(0);
    await expect(page.getByRole('button', { name: 'Upgrade to Lifetime' })).toHaveCount(0);
    await page.getByRole('button', { name: 'Add a microchip' }).click();
    await expect(page.getByLabel('Microchip ID', { exact: true })).toBeFocused();
    await expect(page.getByLabel('Microchip ID', { exact: true })).toBeEditable();
  });
});
