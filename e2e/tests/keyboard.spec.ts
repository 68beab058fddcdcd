import type { Locator, Page } from '@playwright/test';
import { expect, password, petPhoto, test, uniqueEmail } from './fixtures';

/**
 * Presses Tab (or Shift+Tab) until the element has the focus, as a keyboard user moves through a
 * page; fails when it is not reached. The locator only checks where the focus is, it never acts.
 */
async function tabTo(page: Page, target: Locator, key: 'Tab' | 'Shift+Tab' = 'Tab') {
  for (let presses = 0; presses < 60; presses++) {
    if (await target.evaluate((element) => element === document.activeElement).catch(() => false)) return;
    await page.keyboard.press(key);
  }
  throw new Error(`${target} cannot be reached with ${key}`);
}

/** The focused element shows that it has the focus: a focus ring, a focused field's outline or MUI's focus-visible state. */
async function expectFocusVisible(target: Locator) {
  await expect(target).toBeFocused();
  const shown = await target.evaluate((element) => {
    if (!element.matches(':focus-visible')) return false;
    const style = getComputedStyle(element);
    const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) > 0;
    return ring || element.closest('.Mui-focusVisible, .Mui-focused') !== null;
  });
  expect(shown, `${target} shows the focus`).toBe(true);
}

/** Tabs to a field and types into it. */
async function typeInto(page: Page, field: Locator, text: string) {
  await tabTo(page, field);
  await expectFocusVisible(field);
  await page.keyboard.type(text);
}

/** Tabs to a button or link, shows it focused and presses Enter on it. */
async function press(page: Page, target: Locator, key: 'Enter' | 'Space' = 'Enter') {
  await tabTo(page, target);
  await expectFocusVisible(target);
  await page.keyboard.press(key);
}

/** Opens a select from the keyboard, moves to the option by typing its first letters, and chooses it. */
async function chooseWithKeys(page: Page, label: string, option: string) {
  const select = page.getByRole('combobox', { name: label, exact: true });
  await tabTo(page, select);
  await expectFocusVisible(select);
  await page.keyboard.press('ArrowDown');
  const listbox = page.getByRole('listbox');
  await expect(listbox).toBeVisible();
  await page.keyboard.type(option.slice(0, 3));
  await expect(listbox.getByRole('option', { name: option, exact: true })).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(listbox).toBeHidden();
  await expect(select).toHaveText(option);
  await expect(select).toBeFocused();
}

/** Yesterday, as the keys a person types into a date-and-time field (month, day, year, hour, minute, PM). */
function yesterdayAtThreeKeys(): string {
  const day = new Date(Date.now() - 86_400_000);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${pad(day.getMonth() + 1)}${pad(day.getDate())}${day.getFullYear()}0300P`;
}

test.describe('[KEYBOARD]', () => {
  test('a new owner signs up, registers a pet and sends a paid lost pet alert with the keyboard alone', async ({ page }) => {
    test.slow();
    const email = uniqueEmail('keyboard');

    // Sign up.
    await page.goto('/sign-up');
    await typeInto(page, page.getByLabel('Email'), email);
    await press(page, page.getByRole('button', { name: 'Sign up with email' }));
    await expect(page).toHaveURL(/\/sign-up-form\?email=/);
    await typeInto(page, page.getByLabel('First Name'), 'Kai');
    await typeInto(page, page.getByLabel('Last Name'), 'Moreno');
    await typeInto(page, page.getByLabel('Mobile Phone'), '(415) 555-2671');
    await typeInto(page, page.getByLabel('Password', { exact: true }), password);
    await press(page, page.getByRole('button', { name: 'Continue to pet info' }));

    // The first pet, without a chip: its photo chosen through the button that opens the device's file picker.
    await expect(page).toHaveURL(/\/pet-register$/);
    await typeInto(page, page.getByLabel('Pet Name'), 'Marmalade');
    await chooseWithKeys(page, 'Species', 'Dog');
    const breeds = page.getByRole('combobox', { name: 'Breeds' });
    await typeInto(page, breeds, 'Labrador');
    await expect(page.getByRole('option', { name: 'Labrador Retriever' })).toBeVisible();
    await page.keyboard.press('ArrowDown');
    await page.keyboard.press('Enter');
    await expect(page.getByRole('button', { name: 'Labrador Retriever', exact: true })).toBeVisible();
    await page.keyboard.press('Escape');
    await chooseWithKeys(page, 'Sex', 'Female');
    await typeInto(page, page.getByLabel('Date of Birth'), '06012020');
    await expect(page.getByLabel('Date of Birth')).toHaveValue('2020-06-01');
    const picker = page.waitForEvent('filechooser');
    await press(page, page.getByRole('button', { name: 'Choose a photo' }));
    await (await picker).setFiles(await petPhoto(page));
    await expect(page.getByRole('img', { name: 'Pet photo preview' })).toHaveAttribute('src', /^data:image\/png/);
    const share = page.getByLabel('Share Contact Info when my pet is lost');
    await tabTo(page, share);
    await expectFocusVisible(share);
    await page.keyboard.press('Space');
    await expect(share).toBeChecked();
    await press(page, page.getByRole('button', { name: 'Continue to membership selection' }));

    // The dialog holds the focus: Tab and Shift+Tab stay on its buttons.
    const dialog = page.getByRole('dialog', { name: 'No microchip?' });
    await expect(dialog).toBeVisible();
    await expect.poll(() => dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    for (const key of ['Tab', 'Tab', 'Tab', 'Shift+Tab', 'Shift+Tab', 'Shift+Tab']) {
      await page.keyboard.press(key);
      expect(await dialog.evaluate((element) => element.contains(document.activeElement))).toBe(true);
    }
    await press(page, dialog.getByRole('button', { name: 'Send Lost Pet Alert' }));

    // The alert: when and where the pet was last seen, what happened.
    await expect(page).toHaveURL(/\/client\/add-alert\/\d+$/);
    const petId = page.url().split('/').at(-1);
    await expect(page.getByRole('heading', { level: 1, name: 'Lost Pet Alert' })).toBeVisible();
    await typeInto(page, page.getByLabel('Missing Date'), yesterdayAtThreeKeys());
    await expect(page.getByLabel('Missing Date')).toHaveValue(/T15:00$/);
    await typeInto(page, page.getByLabel('Last Seen ZIP Code'), '63101');
    await expect(page.getByText('Saint Louis, MO 63101')).toBeVisible();
    await typeInto(page, page.getByLabel('Incident Description'), 'Slipped her collar near the riverfront at dusk.');
    await page.screenshot({ path: test.info().outputPath('keyboard-alert-form.png'), fullPage: true });
    await press(page, page.getByRole('button', { name: 'Send Lost Pet Alert' }));

    // Paid on the portal's own checkout page.
    await expect(page).toHaveURL(/\/checkout\/cs_local_/);
    await typeInto(page, page.getByLabel('Name on card'), 'Kai Moreno');
    await typeInto(page, page.getByLabel('Card number'), '4242 4242 4242 4242');
    await typeInto(page, page.getByLabel('Expiry (MM/YY)'), '12/39');
    await typeInto(page, page.getByLabel('CVC'), '123');
    await page.screenshot({ path: test.info().outputPath('keyboard-checkout.png'), fullPage: true });
    await press(page, page.getByRole('button', { name: /^Pay \$/ }));

    await expect(page).toHaveURL(new RegExp(`/client/add-alert/${petId}/sent`));
    await expect(page.getByRole('heading', { level: 1, name: 'Lost Pet Alert Sent' })).toBeVisible();
    await expect(page.getByText(/We are e-mailing \d+ pet-care professionals? within 50 miles of Saint Louis, MO 63101 about Marmalade\./)).toBeVisible();

    // The analytics are a keyboard press away.
    await press(page, page.getByRole('link', { name: 'View Analytics' }));
    await expect(page).toHaveURL(/\/client\/add-alert$/);
    await expect(page.getByRole('list', { name: 'Alerts sent' }).getByText('Marmalade')).toBeVisible();
  });
});
