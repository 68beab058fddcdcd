import type { APIRequestContext, Page } from '@playwright/test';
import { admin } from '../playwright.config';
import { createOwner, expect, lastMailTo, ownerWithPet, payThroughApi, petPhoto, randomChip, signIn, test, uniqueEmail, type Owner } from './fixtures';

/** A screenshot among the test's outputs, for a person to look at. */
const shot = (page: Page, name: string, fullPage = true) => page.screenshot({ path: test.info().outputPath(`${name}.png`), fullPage });

const sameOrigin = (link: string) => link.replace(/^http:\/\/localhost:\d+/, '');

const petSaved = 'The pet has been saved successfully';
/** A toast shown or coming in, not leaving: notistack slides a leaving toast out with an inline transform. */
const toastUp = (page: Page, text: string) => page.locator('[role="alert"][style*="transform: none"]', { hasText: text });

/**
 * The owner reports the pet lost through the API, as the alert form does: its profile completed (a
 * photo drawn on the page), then the alert, sent at once since the pet is protected.
 */
async function reportLost(page: Page, request: APIRequestContext, owner: Owner, petId: number) {
  const headers = { authorization: `Bearer ${owner.token}` };
  const get = async (path: string) => (await (await request.get(`/api/v2/${path}`, { headers })).json()).result;
  const dog: number = (await get('utilities/static-data')).species.find((s: { name: string }) => s.name === 'Dog').id;
  const beagle = (await get(`utilities/breeds-by-species/${dog}`)).find((b: { name: string }) => b.name === 'Beagle');
  const pet = await get(`Pet/${petId}`);
  const photo = await petPhoto(page);
  const profile = await request.put('/api/v2/Pet/pet-profile', {
    headers,
    data: {
      id: petId,
      name: pet.name,
      speciesId: dog,
      breeds: [beagle],
      sex: 2,
      dob: '2020-05-01',
      image: `data:image/png;base64,${photo.buffer.toString('base64')}`,
      chipId: pet.microchip1,
      confirmChip: pet.microchip1,
      chipTypeId: pet.chips[0].chipTypeId,
    },
  });
  expect(profile.status(), await profile.text()).toBe(200);
  const alert = await request.post('/api/v2/petalert/send-mail-from-pet-alert', {
    headers,
    data: { name: pet.name, petId, missingDate: new Date(Date.now() - 3_600_000).toISOString(), zipCode: '63101', incidentDescription: 'Slipped her collar at the park.' },
  });
  expect(alert.status(), await alert.text()).toBe(200);
}

test.describe('[ADMIN][PET RECORD]', () => {
  test('an administrator edits an owner and their pet, transfers the pet to a new owner, and removes it', async ({ page, request, browser }) => {
    test.slow();
    const chip = randomChip();
    const { owner, petId } = await ownerWithPet(page, request, chip);
    await payThroughApi(request, owner, petId, true);
    // Another owner's chip, to collide with.
    const otherChip = randomChip();
    await ownerWithPet(await (await browser.newContext()).newPage(), request, otherChip);

    // The administrator opens the record directly: sign-in first, then back to it.
    const adminContext = await browser.newContext();
    const adminPage = await adminContext.newPage();
    await adminPage.goto(`/admin/pet/${petId}`);
    await expect(adminPage).toHaveURL(/\/sign-in$/);
    await signIn(adminPage, admin.email, admin.password);
    await expect(adminPage).toHaveURL(new RegExp(`/admin/pet/${petId}$`));
    await expect(adminPage.getByRole('heading', { name: 'Juniper', level: 1 })).toBeVisible();
    const userCard = adminPage.getByRole('form', { name: 'User profile' });
    const petCard = adminPage.getByRole('form', { name: 'Pet profile' });
    await expect(userCard.getByLabel('Email', { exact: true })).toHaveValue(owner.email);
    await expect(userCard.getByLabel('Email', { exact: true })).toBeDisabled();
    await expect(petCard.getByRole('switch', { name: 'Chip Enabled' })).toBeChecked();
    await expect(petCard.getByRole('switch', { name: 'Enabled', exact: true })).toBeChecked();
    // What a support agent answering a call reads: lost or not, who else to call, vets, cover and payments, the last e-mails.
    await expect(adminPage.getByText('Juniper is not reported lost.')).toBeVisible();
    await expect(adminPage.getByRole('region', { name: 'Backup Contacts' })).toContainText('The owner keeps no backup contacts.');
    await expect(adminPage.getByRole('region', { name: 'Vets' })).toContainText('No vet is linked to this pet.');
    const cover = adminPage.getByRole('region', { name: 'Cover and Payments' });
    await expect(cover).toContainText('Lifetime');
    await expect(cover.getByRole('list', { name: 'Payments' })).toContainText('Card ending 4242');
    const mails = adminPage.getByRole('region', { name: 'Last E-mails to the Owner' });
    await expect(mails.getByRole('listitem').first()).toBeVisible();
    await expect(mails.getByRole('link', { name: `All e-mails to ${owner.email} in the mail log` })).toHaveAttribute(
      'href',
      `/admin-send-email?query=${encodeURIComponent(owner.email)}`,
    );
    // The owners' "Need help?" panel is not the administrators'.
    await expect(adminPage.getByText('Need help?')).toHaveCount(0);
    await shot(adminPage, 'admin-pet-desktop');

    // The owner: the admin rules, Cancel puts back what is saved, then a save.
    await adminPage.getByRole('button', { name: 'Edit user' }).click();
    await userCard.getByLabel('First Name').fill('A');
    await userCard.getByRole('button', { name: 'Save' }).click();
    await expect(userCard.getByText('The First name must be at least 2 characters')).toBeVisible();
    await userCard.getByRole('button', { name: 'Cancel' }).click();
    await expect(userCard.getByLabel('First Name')).toHaveValue('Avery');
    await adminPage.getByRole('button', { name: 'Edit user' }).click();
    await userCard.getByLabel('First Name').fill('Morgan');
    await userCard.getByLabel('City').fill('Saint Louis');
    await userCard.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage.getByText('User Updated')).toBeVisible();
    await expect(userCard.getByLabel('First Name')).toBeDisabled();

    // The pet: a too-short name, a chip of another pet on the microchip field, then a save.
    await adminPage.getByRole('button', { name: 'Edit pet' }).click();
    await petCard.getByLabel('Pet Name').fill('J');
    await petCard.getByRole('button', { name: 'Save' }).click();
    await expect(petCard.getByText('The Pet name must be at least 2 characters')).toBeVisible();
    await petCard.getByLabel('Pet Name').fill('Juniper Rose');
    await petCard.getByLabel('Microchip ID').fill(otherChip);
    await petCard.getByRole('button', { name: 'Save' }).click();
    await expect(petCard.getByText('This microchip id is already registered to another pet.')).toBeVisible();
    await shot(adminPage, 'admin-pet-chip-error', false);
    await petCard.getByRole('button', { name: 'Cancel' }).click();
    await expect(petCard.getByLabel('Pet Name')).toHaveValue('Juniper');
    await adminPage.getByRole('button', { name: 'Edit pet' }).click();
    await petCard.getByLabel('Pet Name').fill('Juniper Rose');
    await petCard.getByRole('button', { name: 'Save' }).click();
    // Pointed at as soon as it is up, the confirmation stays (it is needed below).
    await toastUp(adminPage, petSaved).hover();
    // The pet was active: the page stays.
    await expect(adminPage).toHaveURL(new RegExp(`/admin/pet/${petId}$`));

    // Switched off, then saved again: a pet that was not active goes on to its plan choice (spec 4).
    // The first confirmation stays up under the pointer while the keyboard makes the second save. Its
    // answer is held until that confirmation is on its way out, with the page's clock stopped so that it
    // stays so: the answer still gets its own confirmation.
    const enabled = petCard.getByRole('switch', { name: 'Enabled', exact: true });
    await adminPage.getByRole('button', { name: 'Edit pet' }).press('Enter');
    await enabled.press('Space');
    await expect(enabled).not.toBeChecked();
    let answered!: () => void, failed!: (error: unknown) => void;
    const answer = new Promise<void>((resolve, reject) => ((answered = resolve), (failed = reject)));
    await adminPage.route(
      `**/api/v2/admin/update-pet/${petId}`,
      async (route) => {
        try {
          const response = await route.fetch();
          await adminPage.clock.install();
          await adminPage.clock.pauseAt((await adminPage.evaluate(() => Date.now())) + 2_000);
          // Let go, a toast stays half its time (1 s), then starts to leave.
          await adminPage.mouse.move(0, 0);
          await adminPage.clock.runFor(1_000);
          await expect(toastUp(adminPage, petSaved)).toHaveCount(0);
          await route.fulfill({ response });
          answered();
        } catch (error) {
          failed(error);
        }
      },
      { times: 1 },
    );
    await petCard.getByRole('button', { name: 'Save' }).press('Enter');
    await answer;
    await expect(toastUp(adminPage, petSaved)).toBeVisible();
    await adminPage.clock.resume();
    await expect(adminPage).toHaveURL(new RegExp(`/admin/pet/${petId}$`));
    await expect(enabled).not.toBeChecked();
    await adminPage.getByRole('button', { name: 'Edit pet' }).click();
    await enabled.check();
    await petCard.getByRole('button', { name: 'Save' }).click();
    await expect(adminPage).toHaveURL(new RegExp(`/client/pet/checkout/${petId}$`));
    await adminPage.goto(`/admin/pet/${petId}`);
    await expect(enabled).toBeChecked();

    // The owner sees both changes.
    await page.goto(`/client/pet/update/${petId}`);
    await expect(page.getByRole('heading', { name: 'Juniper Rose', level: 1 })).toBeVisible();
    await expect(page.getByText('Morgan Rivera', { exact: true })).toBeVisible();

    // At 390 px the two cards stack.
    await adminPage.setViewportSize({ width: 390, height: 844 });
    await adminPage.reload();
    await expect(adminPage.getByRole('heading', { name: 'Juniper Rose', level: 1 })).toBeVisible();
    expect(await adminPage.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
    await shot(adminPage, 'admin-pet-390');
    await adminPage.setViewportSize({ width: 1280, height: 800 });

    // Transfer: the e-mail twice, to an address with no account yet.
    const newOwner = uniqueEmail('new-owner');
    await adminPage.getByRole('button', { name: 'Transfer' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Transfer Juniper Rose' });
    await dialog.getByLabel("New owner's email", { exact: true }).fill(newOwner);
    await dialog.getByLabel("Confirm new owner's email").fill(`x${newOwner}`);
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await expect(dialog.getByText("Emails don't match")).toBeVisible();
    await dialog.getByLabel("Confirm new owner's email").fill(newOwner);
    await shot(adminPage, 'admin-pet-transfer', false);
    await dialog.getByRole('button', { name: 'Transfer' }).click();
    await expect(adminPage.getByText('The pet has been transferred.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(userCard.getByLabel('Email', { exact: true })).toHaveValue(newOwner);

    // The previous owner loses the pet at once, and is told.
    await page.reload();
    await expect(page.getByRole('heading', { name: 'Juniper Rose', level: 1 })).toBeHidden();
    await expect(page.getByText('You do not have permission to do that.')).toBeVisible();
    await lastMailTo(owner.email, 'Juniper Rose was transferred to a new owner');

    // The new owner's invitation names the pet and where it comes from; its page asks for the names and phone the profile needs.
    const invitation = await lastMailTo(newOwner, 'Juniper Rose is waiting in your new pet registry account');
    expect(invitation.text).toContain("our support team transferred Juniper Rose to you from Morgan Rivera's account");
    const newOwnerPage = await (await browser.newContext()).newPage();
    await newOwnerPage.goto(sameOrigin(invitation.text!.match(/http:\/\/\S+/)![0]));
    await expect(newOwnerPage.getByRole('heading', { name: 'Set up your account' })).toBeVisible();
    await newOwnerPage.getByLabel('Password', { exact: true }).fill('Welcome#Home1');
    await newOwnerPage.getByLabel('Password (Confirm)').fill('Welcome#Home1');
    await newOwnerPage.getByRole('button', { name: 'Choose your password' }).click();
    await expect(newOwnerPage.getByText('You must enter first name')).toBeVisible();
    await expect(newOwnerPage.getByText('You must enter a Mobile Phone')).toBeVisible();
    await newOwnerPage.getByLabel('First Name').fill('Robin');
    await newOwnerPage.getByLabel('Last Name').fill('Hale');
    await newOwnerPage.getByLabel('Mobile Phone').fill('(314) 555-0188');
    await shot(newOwnerPage, 'invitation-set-up', false);
    await newOwnerPage.getByRole('button', { name: 'Choose your password' }).click();
    await expect(newOwnerPage).toHaveURL(/\/sign-in$/);
    await signIn(newOwnerPage, newOwner, 'Welcome#Home1');
    await expect(newOwnerPage.getByRole('button', { name: /^Hi, Robin/ })).toBeVisible();
    await newOwnerPage.goto(`/client/pet/update/${petId}`);
    await expect(newOwnerPage.getByRole('heading', { name: 'Juniper Rose', level: 1 })).toBeVisible();
    await expect(newOwnerPage.getByText('Lifetime', { exact: true })).toBeVisible();

    // Removal: asked first, then Pet deleted and back to the dashboard.
    await adminPage.getByRole('button', { name: 'Remove' }).click();
    await adminPage.getByRole('dialog').getByRole('button', { name: 'Confirm' }).click();
    await expect(adminPage.getByText('Pet deleted')).toBeVisible();
    await expect(adminPage).toHaveURL(/\/admin$/);
    await newOwnerPage.goto('/client/pet');
    await expect(newOwnerPage.getByText('No pets yet')).toBeVisible();
    await expect(newOwnerPage.getByText('Juniper Rose')).toBeHidden();

    // Its chip still leads an administrator to the record, which says when it was removed.
    await adminPage.goto('/admin-search');
    await adminPage.getByLabel('Microchip number').fill(chip);
    await adminPage.getByLabel('Microchip number').press('Enter');
    await expect(adminPage).toHaveURL(new RegExp(`/admin/pet/${petId}$`));
    const today = new Date().toLocaleDateString('en-US', { month: '2-digit', day: '2-digit', year: 'numeric' });
    await expect(adminPage.getByText(`Removed on ${today}`)).toBeVisible();
    await expect(adminPage.getByText('Record not found')).toHaveCount(0);
    await expect(adminPage.getByRole('button', { name: 'Transfer' })).toHaveCount(0);
    await expect(adminPage.getByRole('button', { name: 'Edit pet' })).toHaveCount(0);
    await shot(adminPage, 'admin-pet-removed');
  });

  test('an administrator is warned before transferring a lost pet, cannot give it to an administrator, and transfers it with its alert', async ({
    page,
    request,
    browser,
  }) => {
    test.slow();
    const { owner, petId } = await ownerWithPet(page, request);
    await payThroughApi(request, owner, petId, true);
    await reportLost(page, request, owner, petId);
    const next = await createOwner(request, 'Robin');

    const adminPage = await (await browser.newContext()).newPage();
    await adminPage.goto('/sign-in');
    await signIn(adminPage, admin.email, admin.password);
    await expect(adminPage).toHaveURL(/\/admin-dashboard$/);
    await adminPage.goto(`/admin/pet/${petId}`);
    const lost = adminPage.getByRole('alert', { name: 'Lost pet alert' });
    await expect(lost).toContainText('Juniper is lost, since');
    await expect(lost).toContainText('Last seen in Saint Louis, MO 63101: Slipped her collar at the park.');
    const userCard = adminPage.getByRole('form', { name: 'User profile' });
    await expect(userCard.getByLabel('Email', { exact: true })).toHaveValue(owner.email);

    // To an administrator's account: the warning first, then the refusal, shown beside the e-mail it concerns.
    await adminPage.getByRole('button', { name: 'Transfer' }).click();
    const dialog = adminPage.getByRole('dialog', { name: 'Transfer Juniper' });
    const newOwnerEmail = dialog.getByLabel("New owner's email", { exact: true });
    await newOwnerEmail.fill(admin.email);
    await dialog.getByLabel("Confirm new owner's email").fill(admin.email);
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    const warning = dialog.getByRole('alert').filter({ hasText: 'Juniper is reported lost' });
    await expect(warning).toContainText('last seen in Saint Louis, MO 63101.');
    await expect(warning).toContainText('The open alert moves with Juniper to the new owner');
    await expect(newOwnerEmail).toBeHidden();
    await shot(adminPage, 'admin-pet-transfer-lost', false);
    await dialog.getByRole('button', { name: 'Transfer anyway' }).click();
    await expect(dialog.getByText("This email belongs to an administrator's account: no pet is registered to it.")).toBeVisible();
    await expect(adminPage.getByText('Some error occurred, please contact our support.')).toBeVisible();
    await expect(newOwnerEmail).toHaveValue(admin.email);
    await expect(warning).toHaveCount(0);
    await shot(adminPage, 'admin-pet-transfer-to-admin', false);
    // Nothing moved: the pet is still the owner's (the page behind the dialog is hidden from the reader).
    expect((await request.get(`/api/v2/Pet/${petId}`, { headers: { authorization: `Bearer ${owner.token}` } })).status()).toBe(200);

    // To a customer's account: warned again, confirmed, done.
    await newOwnerEmail.fill(next.email);
    await dialog.getByLabel("Confirm new owner's email").fill(next.email);
    await dialog.getByRole('button', { name: 'Transfer', exact: true }).click();
    await expect(warning).toBeVisible();
    await expect(dialog.getByText("This email belongs to an administrator's account: no pet is registered to it.")).toHaveCount(0);
    await dialog.getByRole('button', { name: 'Transfer anyway' }).click();
    await expect(adminPage.getByText('The pet has been transferred.')).toBeVisible();
    await expect(dialog).toBeHidden();
    await expect(userCard.getByLabel('Email', { exact: true })).toHaveValue(next.email);
    // The alert went with the pet: the record still says it is lost, and the new owner follows it.
    await expect(lost).toContainText('Juniper is lost, since');
    await shot(adminPage, 'admin-pet-lost-transferred');
    const alertOf = (who: Owner) => request.get(`/api/v2/petalert/alerts/bypet/${petId}`, { headers: { authorization: `Bearer ${who.token}` } });
    const followed = await alertOf(next);
    expect(followed.status()).toBe(200);
    expect((await followed.json()).result).toMatchObject({ petId, status: 'paid', zipCode: '63101' });
    expect((await alertOf(owner)).status()).toBe(403);

    // Both owners are told.
    const away = await lastMailTo(owner.email, 'Juniper was transferred to a new owner');
    expect(away.text).toContain('Juniper no longer appears in your account.');
    const received = await lastMailTo(next.email, 'Juniper is now registered to you');
    expect(received.text).toContain("Hi Robin,\n\nOur support team transferred Juniper's registration, microchip and protection to your account.");
  });
});
