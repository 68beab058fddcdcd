import { admin } from '../playwright.config';
import { choose, createOwner, expect, lastMailTo, mailsTitled, password, signIn, test, uniqueEmail } from './fixtures';

/** A real 1×1 PNG, as a photo to upload. */
const onePixelPng = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

test.describe('[ACCOUNTS]', () => {
  test('a new owner signs up with e-mail and reaches the dashboard', async ({ page }) => {
    const email = uniqueEmail('signup');
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign up with email' }).click();

    await expect(page).toHaveURL(/\/sign-up-form\?email=/);
    await expect(page.getByLabel('Email')).toHaveValue(email);
    await page.getByLabel('First Name').fill('Casey');
    await page.getByLabel('Last Name').fill('Nguyen');
    await page.getByLabel('Mobile Phone').fill('(415) 555-2671');
    await page.getByLabel('Password', { exact: true }).fill('weak');
    await page.getByRole('button', { name: 'Continue to pet info' }).click();
    await expect(
      page.getByText('Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character'),
    ).toBeVisible();

    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue to pet info' }).click();
    await expect(page).toHaveURL(/\/pet-register$/);
    await page.goto('/client/dashboard');
    await expect(page.getByRole('button', { name: 'Hi, Casey Nguyen' })).toBeVisible();
    await expect(page.getByText('Your Pets')).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('dashboard.png'), fullPage: true });
  });

  test('a new owner confirms the e-mail through the mailed link, and the reminder goes', async ({ page }) => {
    const email = uniqueEmail('confirm');
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(email);
    await page.getByRole('button', { name: 'Sign up with email' }).click();
    await page.getByLabel('First Name').fill('Robin');
    await page.getByLabel('Last Name').fill('Okafor');
    await page.getByLabel('Mobile Phone').fill('(415) 555-2671');
    await page.getByLabel('Password', { exact: true }).fill(password);
    await page.getByRole('button', { name: 'Continue to pet info' }).click();
    await expect(page).toHaveURL(/\/pet-register$/);
    await page.goto('/client/dashboard');
    const banner = page.getByRole('status').filter({ hasText: 'Please confirm your e-mail address.' });
    await expect(banner).toHaveText(`Please confirm your e-mail address. We sent a link to ${email}.Send it again`);
    await page.screenshot({ path: test.info().outputPath('confirm-banner.png'), fullPage: true });
    await banner.getByRole('button', { name: 'Send it again' }).click();
    await expect(page.getByText('We sent the link again. Please check your inbox and spam folder.')).toBeVisible();

    // The newest link works; the first one ended when the second was sent.
    const confirmations = async () => (await mailsTitled('Confirm your email address')).filter((m) => m.to && !Array.isArray(m.to) && m.to.text === email);
    await expect.poll(async () => (await confirmations()).length).toBe(2);
    const link = (await confirmations()).at(-1)!.text!.match(/http:\/\/\S+/)![0];
    await page.goto(link.replace(/^http:\/\/localhost:\d+/, ''));
    await expect(page.getByText('Your email address is confirmed.')).toBeVisible();
    await page.goto('/client/dashboard');
    await expect(page.getByText('Your Pets')).toBeVisible();
    await expect(page.getByText('Please confirm your e-mail address.')).toHaveCount(0);
    await page.screenshot({ path: test.info().outputPath('confirmed.png'), fullPage: true });
  });

  test('sign-up says when the e-mail is already taken', async ({ page, request }) => {
    const owner = await createOwner(request);
    await page.goto('/sign-up');
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: 'Sign up with email' }).click();
    await expect(page.getByText('Email is already taken')).toBeVisible();
    await expect(page).toHaveURL(/\/sign-up$/);
  });

  test('an owner signs out through the Logging Out dialog', async ({ page, request }) => {
    const owner = await createOwner(request, 'Robin');
    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    await page.getByRole('button', { name: 'Hi, Robin Rivera' }).click();
    await page.getByRole('menuitem', { name: 'Log Out' }).click();
    const dialog = page.getByRole('dialog', { name: 'Logging Out' });
    await expect(dialog.getByText('You are now being Logged Out')).toBeVisible();
    await dialog.getByRole('button', { name: 'Signout' }).click();
    await expect(page.getByText('You have signed out!')).toBeVisible();
    await expect.poll(() => page.evaluate(() => localStorage.getItem('jwt_access_token'))).toBeNull();

    await page.goto('/client/profile');
    await expect(page).toHaveURL(/\/sign-in$/);
  });

  test('a signed-out owner opening a page signs in and lands back on it', async ({ page, request }) => {
    const owner = await createOwner(request);
    await page.goto('/client/profile');
    await expect(page).toHaveURL(/\/sign-in$/);
    expect(await page.evaluate(() => sessionStorage.getItem('fuseRedirectUrl'))).toBe('/client/profile');

    await signIn(page, owner.email, 'Wrong#Pass1');
    await expect(page.getByText('Invalid email or password')).toBeVisible();
    await signIn(page, owner.email, owner.password);
    await expect(page).toHaveURL(/\/client\/profile$/);
    await expect(page.getByRole('heading', { name: 'Your Profile', exact: true })).toBeVisible();
  });

  test('an owner who forgot the password resets it through the e-mailed link', async ({ page, request }) => {
    const owner = await createOwner(request);
    await page.goto('/sign-in');
    await page.getByRole('link', { name: /forgot password/i }).click();
    await expect(page).toHaveURL(/\/forgot-password$/);
    await page.getByLabel('Email').fill(owner.email);
    await page.getByRole('button', { name: /send|reset/i }).click();
    await expect(page.getByText(/check your spam/i)).toBeVisible();

    const mail = await lastMailTo(owner.email, 'Reset your password');
    const link = mail.text!.match(/http:\/\/\S+/)![0];
    await page.goto(link.replace(/^http:\/\/localhost:\d+/, ''));
    await expect(page.getByText('Reset your password').first()).toBeVisible();
    await expect(page.getByText('Create a new password for your account')).toBeVisible();
    await page.getByLabel('Password', { exact: true }).fill('Brand#New22');
    await page.getByLabel('Password (Confirm)').fill('Brand#New22');
    await page.getByRole('button', { name: 'Reset your password' }).click();
    await expect(page.getByText('Password changed successfully. You can login now')).toBeVisible();
    await expect(page).toHaveURL(/\/sign-in$/);

    await signIn(page, owner.email, 'Brand#New22');
    await expect(page.getByRole('button', { name: `Hi, ${owner.firstName} ${owner.lastName}` })).toBeVisible();

    // The link works once.
    await page.evaluate(() => localStorage.clear());
    await page.goto(link.replace(/^http:\/\/localhost:\d+/, ''));
    await page.getByLabel('Password', { exact: true }).fill('Other#Pass33');
    await page.getByLabel('Password (Confirm)').fill('Other#Pass33');
    await page.getByRole('button', { name: 'Reset your password' }).click();
    await expect(page.getByRole('alert').filter({ hasText: 'This password reset link is invalid or has expired.' })).toBeVisible();
  });

  test('an owner changes the e-mail through the link mailed to the new address', async ({ page, request }) => {
    const owner = await createOwner(request, 'Quinn');
    const newEmail = uniqueEmail('moved');
    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await page.goto('/client/profile');
    const card = page.getByRole('region', { name: 'Your Profile' });
    const email = card.getByLabel('Email', { exact: true });
    await card.getByRole('button', { name: 'Edit' }).click();
    await card.getByLabel('Email notifications').check();
    await expect(card.getByLabel('Current Password')).toHaveCount(0);
    await email.fill(newEmail);
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByText('Enter your current password to change your email')).toBeVisible();
    await card.getByLabel('Current Password').fill(owner.password);
    await card.getByRole('button', { name: 'Save' }).click();
    await expect(card.getByText('We sent a confirmation link to your new email address. Your email changes when you open it.')).toBeVisible();
    // The old address stays until the new one is confirmed, and is told of the request at once.
    await expect(email).toHaveValue(owner.email);
    expect((await lastMailTo(owner.email, 'A change of your email address was requested')).text).toContain(newEmail);

    const mail = await lastMailTo(newEmail);
    const link = mail.text!.match(/http:\/\/\S+/)![0];
    await page.goto(link.replace(/^http:\/\/localhost:\d+/, ''));
    await expect(page.getByText('Your email address has been changed.')).toBeVisible();
    await page.getByRole('link', { name: 'Go to your profile' }).click();
    await expect(page.getByRole('region', { name: 'Your Profile' }).getByLabel('Email', { exact: true })).toHaveValue(newEmail);
    expect((await lastMailTo(owner.email, 'Your email address was changed')).text).toContain(newEmail);

    await page.evaluate(() => localStorage.clear());
    await page.goto('/sign-in');
    await signIn(page, newEmail, owner.password);
    await expect(page.getByRole('button', { name: `Hi, ${owner.firstName} ${owner.lastName}` })).toBeVisible();
  });

  test('an owner cannot open an administrator page', async ({ page, request }) => {
    const owner = await createOwner(request);
    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await page.goto('/admin-dashboard');
    await expect(page).toHaveURL(/\/client$/);
    await expect(page.getByRole('button', { name: 'Search / Edit Records' })).toHaveCount(0);
  });

  test('an administrator lands on the admin dashboard', async ({ page }) => {
    await page.goto('/sign-in');
    await signIn(page, admin.email, admin.password);
    await expect(page).toHaveURL(/\/admin-dashboard$/);
    await expect(page.getByRole('link', { name: 'Search / Edit Records' }).or(page.getByRole('button', { name: 'Search / Edit Records' }))).toBeVisible();
  });

  test('the 404 page and unknown paths', async ({ page }) => {
    await page.goto('/404');
    await expect(page.getByText('Sorry! Page not found.')).toBeVisible();
    await page.getByRole('link', { name: 'Go back to root' }).click();
    await expect(page).toHaveURL(/\/sign-in$/);
    await page.goto('/no/such/page');
    await expect(page).toHaveURL(/\/sign-up$/);
  });

  test('the health status page reads the server', async ({ page }) => {
    await page.goto('/healthcheck');
    await expect(page.getByRole('textbox', { name: 'Health Status' })).toHaveValue('Status: Healthy\nDatabase: connected');
  });

  test('an owner edits the profile and changes the password', async ({ page, request }) => {
    const owner = await createOwner(request);
    await page.goto('/sign-in');
    await signIn(page, owner.email, owner.password);
    await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
    await page.goto('/client/profile');
    const profile = page.getByRole('heading', { name: 'Your Profile', exact: true });
    await expect(profile).toBeVisible();
    await expect(page.getByLabel('First Name')).toBeDisabled();

    await page.getByRole('button', { name: 'Edit' }).click();
    await page.getByLabel('First Name').fill('A');
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('The First name must be at least 2 characters')).toBeVisible();

    await page.getByLabel('First Name').fill('Alexis');
    await page.getByLabel('Choose a photo').setInputFiles({ name: 'me.png', mimeType: 'image/png', buffer: Buffer.from(onePixelPng, 'base64') });
    await expect(page.getByRole('img', { name: 'Profile photo preview' })).toHaveAttribute('src', /^data:image\/png/);
    await page.getByLabel('City').fill('Portland');
    await choose(page, 'State', 'Oregon');
    await expect(page.getByLabel('Phone Number')).toBeDisabled();
    await page.getByLabel('SMS notifications').check();
    await expect(page.getByLabel('Phone Number')).toBeEnabled();
    await page.getByRole('button', { name: 'Save' }).click();
    await expect(page.getByText('Profile updated successfully')).toBeVisible();
    await expect(page.getByRole('button', { name: `Hi, Alexis ${owner.lastName}` })).toBeVisible();
    await page.screenshot({ path: test.info().outputPath('profile.png'), fullPage: true });

    await page.reload();
    await expect(page.getByLabel('City')).toHaveValue('Portland');
    await expect(page.getByRole('img', { name: 'Profile photo preview' })).toHaveAttribute('src', /\/api\/v2\/Users\/user-images\/[a-f0-9]{32}\.jpg$/);

    await page.getByLabel('Current Password').fill(owner.password);
    await page.getByLabel('New Password').fill('Changed#Pass4');
    await page.getByLabel('Confirm Password').fill('Changed#Pass5');
    await page.getByRole('button', { name: /update password|change password|save password/i }).click();
    await expect(page.getByText('Passwords must match')).toBeVisible();
    await page.getByLabel('Confirm Password').fill('Changed#Pass4');
    await page.getByRole('button', { name: /update password|change password|save password/i }).click();
    await expect(page.getByText('Password updated successfully')).toBeVisible();
  });
});
