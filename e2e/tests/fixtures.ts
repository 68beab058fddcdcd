import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test as base, type APIRequestContext, type Page } from '@playwright/test';
import { simpleParser } from 'mailparser';

export const password = 'Secret#123';

let counter = 0;
export const uniqueEmail = (tag = 'owner') => `${tag}-${Date.now()}-${process.pid}-${counter++}@example.com`;

export interface Owner {
  email: string;
  password: string;
  firstName: string;
  lastName: string;
  token: string;
}

/** Creates an owner through the API, so each test has its own account and never depends on another. */
export async function createOwner(request: APIRequestContext, firstName = 'Jamie'): Promise<Owner> {
  const owner = { email: uniqueEmail(), password, firstName, lastName: 'Rivera' };
  const response = await request.post('/api/v2/Users/signup', { data: { ...owner, phoneNumber: '(415) 555-2671' } });
  expect(response.status()).toBe(200);
  return { ...owner, token: (await response.json()).result.token };
}

/** Signs in through the sign-in screen, as a person would. */
export async function signIn(page: Page, email: string, secret: string) {
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(secret);
  await page.getByRole('button', { name: /sign in/i }).click();
}

/** A random 15-digit ISO chip number; a prefix picks the brand (900164 is Save This Life). */
export const randomChip = (prefix = '985') => `${prefix}${String(Date.now()).slice(-9)}${Math.floor(Math.random() * 900 + 100)}`.slice(0, 15);

/** An owner with a chipped pet registered through the API, signed in on the page. */
export async function ownerWithPet(page: Page, request: APIRequestContext, chip = randomChip()) {
  const owner = await createOwner(request, 'Avery');
  const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
  const created = await request.post('/api/v2/Pet/create-pet', {
    headers: { authorization: `Bearer ${owner.token}` },
    data: { name: 'Juniper', speciesId: data.species[0].id, chipId: chip, confirmChip: chip, chipTypeId: data.brands[0].id },
  });
  expect(created.status()).toBe(200);
  const petId: number = (await created.json()).result.pet.id;
  await page.goto('/sign-in');
  await signIn(page, owner.email, owner.password);
  await expect(page.getByRole('button', { name: /^Hi, / })).toBeVisible();
  return { owner, petId };
}

/** Pays a plan on the portal's own checkout through the API, as the checkout page would; the pet becomes active. */
export async function payThroughApi(request: APIRequestContext, owner: Owner, petId: number, lifetime: boolean) {
  const headers = { authorization: `Bearer ${owner.token}` };
  const plans: { id: number; oneTime: boolean }[] = (await (await request.get('/api/v2/pet/plans')).json()).result.plans;
  const planId = plans.find((p) => p.oneTime === lifetime)!.id;
  expect((await request.put('/api/v2/Pet/update-plan', { headers, data: { id: petId, planId } })).status()).toBe(200);
  const checkout = await request.get(`/api/v2/checkout/stripe-subscription/${petId}?petFlow=false`, { headers });
  const sessionId = new URL((await checkout.json()).result.location).pathname.split('/').pop()!;
  const paid = await request.post(`/api/v2/checkout/local/${sessionId}/pay`, {
    headers,
    data: { name: 'Avery Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
  });
  expect(paid.status()).toBe(200);
}

/** A photo as a phone would take it: a real PNG, drawn by the browser. */
export async function petPhoto(page: Page) {
  const dataUrl = await page.evaluate(() => {
    const canvas = document.createElement('canvas');
    canvas.width = 320;
    canvas.height = 320;
    const ctx = canvas.getContext('2d')!;
    const sky = ctx.createLinearGradient(0, 0, 0, 320);
    sky.addColorStop(0, '#f6d8a8');
    sky.addColorStop(1, '#c9793b');
    ctx.fillStyle = sky;
    ctx.fillRect(0, 0, 320, 320);
    ctx.fillStyle = '#5b3a1e';
    ctx.beginPath();
    ctx.arc(160, 170, 90, 0, Math.PI * 2);
    ctx.fill();
    return canvas.toDataURL('image/png');
  });
  return { name: 'marmalade.png', mimeType: 'image/png', buffer: Buffer.from(dataUrl.split(',')[1]!, 'base64') };
}

/** Picks an option of an MUI select by its label. */
export async function choose(page: Page, label: string, option: string) {
  const select = page.getByRole('combobox', { name: label, exact: true });
  // Opened from the keyboard: a mouse click can let the opening menu catch its own mouse-up.
  await select.focus();
  await select.press('ArrowDown');
  await page.getByRole('listbox').getByRole('option', { name: option, exact: true }).click();
  await expect(select).toHaveText(option);
}

/** The newest e-mail to the recipient (with that subject, when given), waiting for the outbox to send it. */
export async function lastMailTo(recipient: string, subject?: string) {
  const matching = async () => (await mailsTo(recipient)).filter((m) => subject === undefined || m.subject === subject);
  await expect
    .poll(async () => (await matching()).length, { message: `an e-mail to ${recipient}${subject ? ` titled ${subject}` : ''}` })
    .toBeGreaterThan(0);
  return (await matching()).at(-1)!;
}

/** The texts the embedded SMS outbox (DATA_DIR/sms) wrote to the number (E.164), oldest first, once the worker sent one. */
export async function textsTo(phone: string): Promise<string[]> {
  const written = () => {
    const dir = join(process.env.E2E_DATA_DIR!, 'sms');
    let files: string[];
    try {
      files = readdirSync(dir).sort();
    } catch {
      return [];
    }
    return files.map((f) => readFileSync(join(dir, f), 'utf8')).filter((text) => text.startsWith(`To: ${phone}\n`));
  };
  await expect.poll(() => written().length, { message: `a text to ${phone}` }).toBeGreaterThan(0);
  return written();
}

/** Every e-mail to the recipient the portal has written so far, oldest first (wait for one with lastMailTo first). */
export async function mailsTo(recipient: string) {
  return (await writtenMails()).filter((m) => m.to && !Array.isArray(m.to) && m.to.text === recipient);
}

/** Every e-mail titled so, to whomever it went, once the outbox has sent at least one. */
export async function mailsTitled(subject: string) {
  const matching = async () => (await writtenMails()).filter((m) => m.subject === subject);
  await expect.poll(async () => (await matching()).length, { message: `an e-mail titled ${subject}` }).toBeGreaterThan(0);
  return matching();
}

/** The e-mails the portal wrote to DATA_DIR/mail, oldest first. */
async function writtenMails() {
  const dir = join(process.env.E2E_DATA_DIR!, 'mail');
  let files: string[];
  try {
    files = readdirSync(dir).filter((f) => f.endsWith('.eml')).sort();
  } catch {
    return [];
  }
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(dir, f)))));
}

/** A 20×20 PNG, the photo an alert needs. */
const alertPhoto =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAABQAAAAUCAIAAAAC64paAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAIElEQVQ4jWM40OBANmIY1ewwGmAOo4nEYTRjOAxcYQAA0I5YHz5UGBcAAAAASUVORK5CYII=';

/** A clinic the administrator adds through the API, taking alerts, at the ZIP. */
export async function addClinic(request: APIRequestContext, adminToken: string, zipCode: string, name: string) {
  const email = uniqueEmail('clinic');
  const created = await request.post('/api/v2/admin/sites', {
    headers: { authorization: `Bearer ${adminToken}` },
    data: { name, kind: 'Veterinary Care', email, zipCode, receivesAlerts: true, isActive: true },
  });
  expect(created.status(), await created.text()).toBe(200);
  return { name, email };
}

/** An owner's lost pet of the species, alerted about from the ZIP and paid on the portal's checkout, as the alert form does. */
export async function lostPetAlert(request: APIRequestContext, zipCode: string, speciesName: string, petName: string) {
  const owner = await createOwner(request, 'Morgan');
  const headers = { authorization: `Bearer ${owner.token}` };
  const data = (await (await request.get('/api/v2/utilities/static-data')).json()).result;
  const speciesId: number = data.species.find((s: { name: string }) => s.name === speciesName).id;
  const breed = (await (await request.get(`/api/v2/utilities/breeds-by-species/${speciesId}`)).json()).result[0];
  const created = await request.post('/api/v2/Pet/create-pet', { headers, data: { name: petName, speciesId, chipId: '', confirmChip: '', chipTypeId: null } });
  expect(created.status(), await created.text()).toBe(200);
  const petId: number = (await created.json()).result.pet.id;
  const profile = { id: petId, name: petName, speciesId, breeds: [breed], sex: 1, dob: '2020-05-01', image: alertPhoto, chipId: '', confirmChip: '', chipTypeId: null };
  const saved = await request.put('/api/v2/Pet/pet-profile', { headers, data: profile });
  expect(saved.status(), await saved.text()).toBe(200);
  const sent = await request.post('/api/v2/petalert/send-mail-from-pet-alert', {
    headers,
    data: { name: petName, petId, missingDate: new Date(Date.now() - 3600_000).toISOString(), zipCode, incidentDescription: 'Gone from the yard.', status: 'NEW' },
  });
  expect(sent.status(), await sent.text()).toBe(200);
  const sessionId = (await sent.json()).result.location.split('/checkout/')[1];
  const paid = await request.post(`/api/v2/checkout/local/${sessionId}/pay`, {
    headers,
    data: { name: 'Morgan Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
  });
  expect(paid.status(), await paid.text()).toBe(200);
}

/** Fails a test when the page logs an unexpected console error. */
export const test = base.extend<{ consoleErrors: string[] }>({
  consoleErrors: [
    async ({ page }, use) => {
      const errors: string[] = [];
      page.on('console', (message) => {
        // Failed API calls that a test provokes on purpose are logged by the browser itself.
        if (message.type() === 'error' && !message.text().includes('Failed to load resource')) errors.push(message.text());
      });
      await use(errors);
      expect(errors, 'console errors').toEqual([]);
    },
    { auto: true },
  ],
});

export { expect };
