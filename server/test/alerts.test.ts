import { join } from 'node:path';
import {
  messages,
  type AlertLocation,
  type AlertPrices,
  type AuthResult,
  type EmailStats,
  type Pet,
  type PetAlert,
  type PublicProfile,
} from '@petreg/contract';
import { and, eq, inArray } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { alertEmails, checkoutSessions, chips, emailUnsubscribes, mailOutbox, payments, petAlerts, pets, sitePets, users } from '../src/db/schema.js';
import { createMailer, type Mailer, type MailMessage } from '../src/adapters/mail/index.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { alertKit, alertMailSettings } from './alertKit.js';
import { call, createTestApp, readOutbox, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
let yearly: number;
const settings = alertMailSettings;
const { siteNear, profileOf, ownerWithLostPet, sendAlert, sessionIdOf, payCheckout, sendAndPay, recipientsOf } = alertKit(() => ctx);

beforeAll(async () => {
  ctx = await createTestApp();
  const { body } = await call<{ plans: { id: number; planId: string }[] }>(ctx.app, 'GET', 'pet/plans');
  yearly = body.result!.plans.find((p) => p.planId === 'yearly')!.id;
});
afterAll(() => ctx.close());

const db = () => ctx.database.db;
const kitAlertOf = async (token: string, petId: number) => (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${petId}`, { token })).body.result!;
const stats = async (token: string, alertId: number) => (await call<EmailStats>(ctx.app, 'GET', `email/${alertId}/getEmailStats`, { token })).body.result!;

describe('the pet form first: PUT Pet/pet-profile keeps the missing pet details', () => {
  it('stores missingDate, zipCode and incidentDescription, and the ordinary edit leaves them', async () => {
    const { token, pet } = await ownerWithLostPet();
    const missingDate = '2024-01-01T15:00:00-06:00';
    const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', {
      token,
      body: await profileOf(pet, { missingDate, zipCode: '63101', incidentDescription: 'Ran after a <cat>' }),
    });
    expect(saved.body.result).toMatchObject({ missingDate: '2024-01-01T21:00:00.000Z', zipCode: '63101', incidentDescription: 'Ran after a <cat>' });
    const edited = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...(await profileOf(pet)), name: 'Biscuit Two' } });
    expect(edited.body.result).toMatchObject({ name: 'Biscuit Two', missingDate: '2024-01-01T21:00:00.000Z', zipCode: '63101' });
  });

  it('refuses a ZIP code the ZIP table does not know, and a missing date in the future', async () => {
    const { token, pet } = await ownerWithLostPet();
    const unknown = await call(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: await profileOf(pet, { zipCode: '00000' }) });
    expect(unknown.status).toBe(400);
    expect(unknown.body.errors).toEqual([messages.zipUnknown]);
    const future = await call(ctx.app, 'PUT', 'Pet/pet-profile', {
      token,
      body: await profileOf(pet, { missingDate: new Date(Date.now() + 86_400_000).toISOString() }),
    });
    expect(future.body.errors).toEqual([messages.dateInFuture]);
    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));
    expect(row).toMatchObject({ zipCode: null, missingDate: null });
  });
});

describe('POST petalert/send-mail-from-pet-alert', () => {
  it('checks the rules of the lost alert form on the call, and changes nothing', async () => {
    const { token, pet } = await ownerWithLostPet();
    const cases: [Record<string, unknown>, string][] = [
      [{ missingDate: '' }, messages.missingDateRequired],
      [{ missingDate: new Date(Date.now() + 86_400_000).toISOString() }, messages.dateInFuture],
      [{ incidentDescription: '' }, messages.incidentDescriptionRequired],
      [{ incidentDescription: 'x'.repeat(201) }, messages.incidentDescriptionTooLong],
      [{ zipCode: '631' }, messages.zipInvalid],
      [{ zipCode: '00000' }, messages.zipUnknown],
      [{ zipCode: null }, messages.zipcodeRequired],
      [{ status: 'paid' }, messages.invalidRequest],
    ];
    for (const [change, message] of cases) {
      const answer = await sendAlert(token, pet.id, change);
      expect(answer.status, JSON.stringify(change)).toBe(400);
      expect(answer.body.errors).toEqual([message]);
    }
    expect(await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id))).toEqual([]);
  });

  it('refuses a pet that does not meet the form rules (image, breeds, sex, date of birth), listing each', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token, null);
    const answer = await sendAlert(owner.token, pet.id);
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual([messages.petImageRequired, messages.breedsRequired, messages.petSexRequired, messages.dobRequired]);
    expect(await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id))).toEqual([]);
  });

  it('refuses, charging nothing, an alert that would reach nobody; the pet\'s own vet is somebody', async () => {
    const { token, pet } = await ownerWithLostPet();
    // Nothing takes alerts within 50 miles of Nome, Alaska: only a site without alerts, and one too far.
    await siteNear('99762', 10, { receivesAlerts: false });
    await siteNear('99762', 60);
    const refused = await sendAlert(token, pet.id, { zipCode: '99762' });
    expect([refused.status, refused.body.errors]).toEqual([400, [messages.alertReachesNobody]]);
    expect(await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id))).toEqual([]);
    expect(await db().select().from(checkoutSessions).where(eq(checkoutSessions.petId, pet.id))).toEqual([]);

    // The pet's own vets are somebody only when they take alerts and lie within reach of where it was last seen.
    const farVet = await siteNear('99762', 300);
    const vetWithoutAlerts = await siteNear('99762', 20, { receivesAlerts: false });
    await db().insert(sitePets).values([farVet, vetWithoutAlerts].map((site) => ({ siteId: site.id, petId: pet.id })));
    const stillRefused = await sendAlert(token, pet.id, { zipCode: '99762' });
    expect([stillRefused.status, stillRefused.body.errors]).toEqual([400, [messages.alertReachesNobody]]);

    const vet = await siteNear('99762', 80);
    await db().insert(sitePets).values({ siteId: vet.id, petId: pet.id });
    const sent = await sendAlert(token, pet.id, { zipCode: '99762' });
    expect(sent.status).toBe(200);
    expect(await recipientsOf((await kitAlertOf(token, pet.id)).id)).toEqual([]);
    await payCheckout(token, sent.body.result!.location);
    expect(await recipientsOf((await kitAlertOf(token, pet.id)).id)).toEqual([vet.email!.toLowerCase()]);
  });

  it("uses the owner's home ZIP when the form sends none", async () => {
    const { token, pet, user } = await ownerWithLostPet();
    await db().update(users).set({ zipcode: '10001-1234' }).where(eq(users.id, user.id));
    await siteNear('10001', 3);
    expect((await sendAlert(token, pet.id, { zipCode: null })).status).toBe(200);
    const alert = (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token })).body.result!;
    expect(alert).toMatchObject({ zipCode: '10001', place: 'New York, NY 10001', status: 'NEW', sentAt: null });
  });

  it('is for the owner only: another owner gets 403 and a guest 401, and nothing changes', async () => {
    const { pet } = await ownerWithLostPet();
    const stranger = await signUpOwner(ctx.app);
    expect((await sendAlert(stranger.token, pet.id)).status).toBe(403);
    expect((await sendAlert(undefined, pet.id)).status).toBe(401);
    expect((await sendAlert(stranger.token, 999_999)).status).toBe(404);
    expect(await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id))).toEqual([]);
  });

  it('answers the checkout of the alert when the pet has no active protection, and reuses the NEW alert', async () => {
    const { token, pet } = await ownerWithLostPet();
    await siteNear('63101', 3);
    await siteNear('10001', 3);
    const first = await sendAlert(token, pet.id);
    expect(first.status).toBe(200);
    expect(first.body.result!.location).toMatch(/^http:\/\/localhost:3000\/checkout\/cs_local_/);
    const order = await call<{ planName: string; totalCents: number; petName: string; cancelUrl: string; successUrl: string }>(
      ctx.app,
      'GET',
      `checkout/local/${sessionIdOf(first.body.result!.location)}`,
      { token },
    );
    expect(order.body.result).toMatchObject({ planName: 'Lost Pet Alert', totalCents: 1499, petName: 'Biscuit', cancelUrl: `/client/add-alert/${pet.id}` });
    expect(order.body.result!.successUrl).toMatch(new RegExp(`^/client/add-alert/${pet.id}/sent\\?session_id=cs_local_`));

    const second = await sendAlert(token, pet.id, { zipCode: '10001', incidentDescription: 'Seen near the station' });
    expect(second.status).toBe(200);
    const rows = await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ status: 'NEW', zipCode: '10001', incidentDescription: 'Seen near the station', recipientsCount: 0 });
    expect(await db().select().from(alertEmails).where(eq(alertEmails.alertId, rows[0]!.id))).toEqual([]);
  });

  it('sends at once and at no charge for a pet with active protection', async () => {
    const owner = await signUpOwner(ctx.app);
    const chipped = await registerPet(ctx.app, owner.token, uniqueChip());
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: chipped.id, planId: yearly } });
    const checkout = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${chipped.id}?petFlow=false&isTagSelected=false`, {
      token: owner.token,
    });
    expect((await payCheckout(owner.token, checkout.body.result!.location)).status).toBe(200);
    const pet = (await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: await profileOf(chipped) })).body.result!;
    const near = await siteNear('63101', 5);

    const sent = await sendAlert(owner.token, pet.id);
    expect(sent.body.result).toEqual({ location: `/client/add-alert/${pet.id}/sent` });
    const alert = (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token: owner.token })).body.result!;
    expect(alert).toMatchObject({ status: 'paid', place: 'Saint Louis, MO 63101', sentAt: expect.any(String) });
    expect(await recipientsOf(alert.id)).toContain(near.email);
    const checkouts = await db().select().from(checkoutSessions).where(eq(checkoutSessions.petId, pet.id));
    expect(checkouts.filter((c) => c.alertId !== null)).toEqual([]);
    expect(alert.name).toBe(pet.name);
    const confirmations = await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, owner.user.data.email));
    const confirmation = confirmations.find((m) => m.subject === 'Your lost pet alert for Biscuit was sent')!;
    expect(confirmation.text).toContain("It was sent at no charge: Biscuit's protection plan includes alerts.");
  });
});

describe('paying for the alert sends it: the fan-out', () => {
  it('reaches the sites within 50 miles and the pet\'s own vets within 100 that take alerts, once per address, less the unsubscribed', async () => {
    const { token, pet, user } = await ownerWithLostPet();
    const inside = await siteNear('63101', 40);
    const outside = await siteNear('63101', 60);
    const noAlerts = await siteNear('63101', 10, { receivesAlerts: false });
    const closed = await siteNear('63101', 10, { isActive: false });
    const noEmail = await siteNear('63101', 10, { email: null });
    const sameAddress = await siteNear('63101', 20, { email: inside.email!.toUpperCase() });
    const unsubscribed = await siteNear('63101', 15);
    await db().insert(emailUnsubscribes).values({ email: unsubscribed.email! });
    // The pet's own vets: told beyond the 50 miles, up to 100, when they take alerts and are in the directory.
    const ownVet = await siteNear('63101', 90);
    const ownVetTooFar = await siteNear('63101', 110);
    const ownVetAcrossTheCountry = await siteNear('99501', 0);
    const ownVetWithoutAlerts = await siteNear('63101', 5, { receivesAlerts: false });
    const ownVetClosed = await siteNear('63101', 5, { isActive: false });
    const ownVets = [ownVet, ownVetTooFar, ownVetAcrossTheCountry, ownVetWithoutAlerts, ownVetClosed];
    await db().insert(sitePets).values(ownVets.map((site) => ({ siteId: site.id, petId: pet.id })));

    const alert = await sendAndPay(token, pet.id);
    expect(alert).toMatchObject({ status: 'paid', zipCode: '63101', place: 'Saint Louis, MO 63101', foundDate: null });
    const recipients = await recipientsOf(alert.id);
    expect(recipients).toEqual(expect.arrayContaining([inside.email, ownVet.email]));
    for (const left of [outside, noAlerts, closed, unsubscribed, ...ownVets.slice(1)]) expect(recipients).not.toContain(left.email);
    // The same address in capitals is one recipient; a site without an e-mail is none.
    expect(recipients.filter((r) => r === inside.email)).toHaveLength(1);
    expect(recipients).not.toContain(sameAddress.email);
    expect(await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.siteId, noEmail.id)))).toEqual([]);
    expect(alert.recipientsCount).toBe(recipients.length);

    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));
    expect(row).toMatchObject({ status: 'paid', zipCode: '63101', foundDate: null, incidentDescription: 'Slipped the leash near the park.' });
    const confirmation = await db().select().from(mailOutbox).where(eq(mailOutbox.recipient, user.data.email));
    expect(confirmation.find((m) => m.subject === 'Your lost pet alert for Biscuit was sent')!.text).toContain(
      `is on its way to ${recipients.length} pet-care professionals within 50 miles of Saint Louis, MO 63101.\nWe received $14.99 for it.`,
    );
    const list = await call<Pet[]>(ctx.app, 'GET', 'pet/user-pet-list', { token });
    expect(list.body.result!.find((p) => p.id === pet.id)!.status).toBe('paid');
  });

  it('adds nothing when the completion is replayed, nor on a second send', async () => {
    const { token, pet } = await ownerWithLostPet();
    await siteNear('63101', 3);
    const sent = await sendAlert(token, pet.id);
    const sessionId = sessionIdOf(sent.body.result!.location);
    await payCheckout(token, sent.body.result!.location);
    const alert = (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token })).body.result!;
    const before = await recipientsOf(alert.id);
    expect(before.length).toBeGreaterThan(0);
    const paid = { sessionId, paymentId: 'pi_replay', subscriptionId: null, cardLast4: '4242', amountCents: 1499, currency: 'usd', customerName: null, customerEmail: null };
    await ctx.app.payments.complete(paid);
    await ctx.app.payments.complete(paid);
    expect(await recipientsOf(alert.id)).toEqual(before);
    expect((await call(ctx.app, 'POST', `checkout/local/${sessionId}/pay`, { token, body: { name: 'J R', cardNumber: '4242424242424242', expiry: '12/39', cvc: '123' } })).status).toBe(409);

    const again = await sendAlert(token, pet.id);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.alertAlreadySent]);
    expect(await recipientsOf(alert.id)).toEqual(before);
  });

  it('POST checkout/checkout-lpa answers the checkout of the NEW alert; 404 without one, 409 once sent', async () => {
    const { token, pet } = await ownerWithLostPet();
    const none = await call(ctx.app, 'POST', 'checkout/checkout-lpa', { token, body: { petId: pet.id } });
    expect(none.status).toBe(404);
    expect(none.body.errors).toEqual([messages.noAlertsFound]);
    await sendAlert(token, pet.id);
    const stranger = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'POST', 'checkout/checkout-lpa', { token: stranger.token, body: { petId: pet.id } })).status).toBe(403);
    expect((await call(ctx.app, 'POST', 'checkout/checkout-lpa', { body: { petId: pet.id } })).status).toBe(401);
    const checkout = await call<AlertLocation>(ctx.app, 'POST', 'checkout/checkout-lpa', { token, body: { petId: pet.id } });
    expect(checkout.body.result!.location).toMatch(/\/checkout\/cs_local_/);
    expect((await payCheckout(token, checkout.body.result!.location)).body.result!.location).toMatch(new RegExp(`^/client/add-alert/${pet.id}/sent\\?session_id=`));
    const sent = await call(ctx.app, 'POST', 'checkout/checkout-lpa', { token, body: { petId: pet.id } });
    expect(sent.status).toBe(409);
  });

  it('cancels the checkout of an alert that goes out free once the pet became covered', async () => {
    const owner = await signUpOwner(ctx.app);
    const chipped = await registerPet(ctx.app, owner.token, uniqueChip());
    const pet = (await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: await profileOf(chipped) })).body.result!;
    const unpaid = await sendAlert(owner.token, pet.id);
    expect(unpaid.body.result!.location).toMatch(/\/checkout\/cs_local_/);

    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: yearly } });
    const plan = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=false&isTagSelected=false`, { token: owner.token });
    expect((await payCheckout(owner.token, plan.body.result!.location)).status).toBe(200);
    expect((await sendAlert(owner.token, pet.id)).body.result).toEqual({ location: `/client/add-alert/${pet.id}/sent` });

    const [stale] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionIdOf(unpaid.body.result!.location)));
    expect(stale!.status).toBe('canceled');
    expect((await payCheckout(owner.token, unpaid.body.result!.location)).status).toBe(409);
  });

  it('ends the open alert checkout when cover is bought, so the alert it would charge for is never charged', async () => {
    const owner = await signUpOwner(ctx.app);
    const chipped = await registerPet(ctx.app, owner.token, uniqueChip());
    const pet = (await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: await profileOf(chipped) })).body.result!;
    await siteNear('63101', 4);
    const unpaid = await sendAlert(owner.token, pet.id);
    expect(unpaid.body.result!.location).toMatch(/\/checkout\/cs_local_/);

    const { body } = await call<{ plans: { id: number; oneTime: boolean }[] }>(ctx.app, 'GET', 'pet/plans');
    const lifetime = body.result!.plans.find((p) => p.oneTime)!.id;
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: lifetime } });
    const plan = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=false&isTagSelected=false`, { token: owner.token });
    expect((await payCheckout(owner.token, plan.body.result!.location)).status).toBe(200);

    const [stale] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.id, sessionIdOf(unpaid.body.result!.location)));
    expect(stale!.status).toBe('canceled');
    const late = await payCheckout(owner.token, unpaid.body.result!.location);
    expect(late.status).toBe(409);
    expect(late.body.errors).toEqual([messages.checkoutClosed]);
    expect(await db().select().from(payments).where(eq(payments.providerSessionId, stale!.id))).toEqual([]);
    // The alert still waits, and now goes out free.
    expect((await sendAlert(owner.token, pet.id)).body.result).toEqual({ location: `/client/add-alert/${pet.id}/sent` });
  });

  it("tells the owner the alert's price and which of their pets send theirs free; no one else's pets", async () => {
    const owner = await signUpOwner(ctx.app);
    const covered = await registerPet(ctx.app, owner.token, uniqueChip());
    const uncovered = await registerPet(ctx.app, owner.token, uniqueChip());
    const chipless = await registerPet(ctx.app, owner.token, null);
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: covered.id, planId: yearly } });
    const plan = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${covered.id}?petFlow=false&isTagSelected=false`, { token: owner.token });
    expect((await payCheckout(owner.token, plan.body.result!.location)).status).toBe(200);

    const prices = await call<AlertPrices>(ctx.app, 'GET', 'petalert/alert-price', { token: owner.token });
    expect(prices.status).toBe(200);
    expect(prices.body.result).toEqual({ priceCents: 1499, currency: 'usd', freePetIds: [covered.id] });
    expect(prices.body.result!.freePetIds).not.toContain(uncovered.id);
    expect(prices.body.result!.freePetIds).not.toContain(chipless.id);

    const stranger = await signUpOwner(ctx.app);
    expect((await call<AlertPrices>(ctx.app, 'GET', 'petalert/alert-price', { token: stranger.token })).body.result!.freePetIds).toEqual([]);
    await ensureAdministrator(db(), { email: 'alerts-admin@example.com', password: 'Admin#Pass1' });
    const admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'alerts-admin@example.com', password: 'Admin#Pass1' } })).body.result!;
    expect((await call<AlertPrices>(ctx.app, 'GET', 'petalert/alert-price', { token: admin.token })).body.result).toMatchObject({ priceCents: 1499, freePetIds: [] });
    expect((await call(ctx.app, 'GET', 'petalert/alert-price')).status).toBe(401);

    // Expired yearly cover sends nothing free.
    await db().update(chips).set({ expirationDate: new Date(Date.now() - 60_000) }).where(eq(chips.petId, covered.id));
    expect((await call<AlertPrices>(ctx.app, 'GET', 'petalert/alert-price', { token: owner.token })).body.result!.freePetIds).toEqual([]);
  });

  it('keeps the alert price out of the protection plans', async () => {
    const { body } = await call<{ plans: { planId: string }[] }>(ctx.app, 'GET', 'pet/plans');
    expect(body.result!.plans.map((p) => p.planId)).toEqual(['yearly', 'lifetime']);
    const { token, pet } = await ownerWithLostPet();
    const [alertPrice] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.petId, pet.id));
    expect(alertPrice).toBeUndefined();
    await sendAlert(token, pet.id);
    const [session] = await db().select().from(checkoutSessions).where(eq(checkoutSessions.petId, pet.id));
    const chosen = await call(ctx.app, 'PUT', 'Pet/update-plan', { token, body: { id: pet.id, planId: session!.planId } });
    expect(chosen.status).toBe(400);
    expect(chosen.body.errors).toEqual([messages.planNotFound]);
  });
});

describe('the alert e-mails, stats and unsubscribing', () => {
  it('sends each recipient one escaped e-mail with the photo, details, profile link, pixel and one-click unsubscribe', async () => {
    const { token, pet } = await ownerWithLostPet({ name: 'Bis<b>cuit</b>', sex: 2 });
    const near = await siteNear('78701', 10);
    const alert = await sendAndPay(token, pet.id, {
      zipCode: '78701',
      incidentDescription: 'Ran off <script>alert(1)</script> & hid',
      missingDate: '2024-01-01T21:00:00Z',
    });
    const run = await sendDueAlertEmails(db(), collector, settings);
    expect(run.delivered).toBeGreaterThan(0);
    const mine = sentMessages.filter((m) => m.to === near.email);
    expect(mine).toHaveLength(1);
    const [mail] = mine;
    const row = (await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, near.email!))))[0]!;
    expect(row.status).toBe('delivered');
    expect(mail!.subject).toBe('Lost dog: Bis<b>cuit</b>, last seen near Austin, TX 78701');
    expect(mail!.headers).toEqual({
      'List-Unsubscribe': `<http://localhost:3000/api/v2/email/unsubscribe/${row.token}>, <mailto:alerts@registry.example?subject=unsubscribe%20${row.token}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
    const shortId = (await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token })).body.result!.shortId;
    expect(mail!.text).toContain('Species: Dog\nBreed: Beagle\nSex: Female\n');
    expect(mail!.text).toContain('Missing since Monday, Jan 1, 2024, 3 PM CST, last seen near Austin, TX 78701.');
    expect(mail!.text).toContain("In the owner's words:\n> Ran off <script>alert(1)</script> & hid\n");
    expect(mail!.text).toContain(`http://localhost:3000/short/${shortId}`);
    expect(mail!.text).toContain('(800) 555-0142');
    expect(mail!.html).toContain('Lost dog: Bis&#60;b&#62;cuit&#60;/b&#62;');
    expect(mail!.html).toContain('Ran off &#60;script&#62;alert(1)&#60;/script&#62; &#38; hid');
    expect(mail!.html).not.toContain('<script>');
    expect(mail!.html).toContain(`src="http://localhost:3000/api/v2/pet/pet-images/`);
    expect(mail!.html).toContain(`src="http://localhost:3000/api/v2/email/open/${row.token}.gif"`);

    // A second run finds nothing more to send.
    const count = sentMessages.length;
    await sendDueAlertEmails(db(), collector, settings);
    expect(sentMessages.filter((m) => m.to === near.email)).toHaveLength(1);
    expect(sentMessages.length).toBe(count);
  });

  it('counts delivered, opened (the first open, once), automatic opens and bounces for the owner only', async () => {
    const { token, pet } = await ownerWithLostPet();
    const [a, b, c] = [await siteNear('98101', 1), await siteNear('98101', 2), await siteNear('98101', 3)];
    const alert = await sendAndPay(token, pet.id, { zipCode: '98101' });
    const counted = alert.recipientsCount;
    expect(await stats(token, alert.id)).toEqual({ counted, delivered: 0, opened: 0, bounced: 0, automaticOpens: 0 });
    await sendDueAlertEmails(db(), collector, settings);
    const tokenOf = async (email: string) =>
      (await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, email))))[0]!.token;
    const pixel = async (email: string, userAgent: string) => ctx.app.inject({ method: 'GET', url: `/api/v2/email/open/${await tokenOf(email)}.gif`, headers: { 'user-agent': userAgent } });
    const opened = await pixel(a.email!, 'Mozilla/5.0 (Windows NT 10.0) Thunderbird/115');
    expect(opened.statusCode).toBe(200);
    expect(opened.headers['content-type']).toBe('image/gif');
    expect(opened.headers['cache-control']).toBe('no-store, max-age=0');
    expect(opened.rawPayload.subarray(0, 6).toString()).toBe('GIF89a');
    await pixel(a.email!, 'Mozilla/5.0 (Windows NT 10.0) Thunderbird/115');
    await pixel(b.email!, 'Mozilla/5.0');
    await db().update(alertEmails).set({ status: 'bounced', deliveredAt: null }).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, c.email!)));
    expect(await stats(token, alert.id)).toEqual({ counted, delivered: counted - 1, opened: 1, bounced: 1, automaticOpens: 1 });
    const unknown = await ctx.app.inject({ method: 'GET', url: `/api/v2/email/open/00000000-0000-4000-8000-000000000000.gif` });
    expect(unknown.statusCode).toBe(200);
    // Not a UUID, though of its length and letters: refused before the database is asked.
    expect((await ctx.app.inject({ method: 'GET', url: `/api/v2/email/open/${'a'.repeat(36)}.gif` })).statusCode).toBe(400);

    const stranger = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'GET', `email/${alert.id}/getEmailStats`, { token: stranger.token })).status).toBe(403);
    expect((await call(ctx.app, 'GET', `email/${alert.id}/getEmailStats`)).status).toBe(401);
    expect((await call(ctx.app, 'GET', `email/999999/getEmailStats`, { token })).status).toBe(404);
    expect((await call(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token: stranger.token })).status).toBe(403);
  });

  it('counts only the 30 days after sending', async () => {
    const { token, pet } = await ownerWithLostPet();
    await siteNear('30301', 1);
    const alert = await sendAndPay(token, pet.id, { zipCode: '30301' });
    await sendDueAlertEmails(db(), collector, settings);
    const late = new Date(Date.parse(alert.sentAt!) + 31 * 86_400_000);
    await db().update(alertEmails).set({ openedAt: late }).where(eq(alertEmails.alertId, alert.id));
    const result = await stats(token, alert.id);
    expect(result.opened).toBe(0);
    expect(result.delivered).toBe(result.counted);
  });

  it('unsubscribes by POST (RFC 8058 one-click) and not by GET; the next alert skips the address', async () => {
    const { token, pet } = await ownerWithLostPet();
    const site = await siteNear('02108', 2);
    const alert = await sendAndPay(token, pet.id, { zipCode: '02108' });
    const [row] = await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, site.email!)));
    const url = `/api/v2/email/unsubscribe/${row!.token}`;

    const page = await ctx.app.inject({ method: 'GET', url });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.body).toContain('<form method="post">');
    expect(page.body).toContain(site.email!);
    expect(await db().select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, site.email!))).toEqual([]);

    const posted = await ctx.app.inject({
      method: 'POST',
      url,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: 'List-Unsubscribe=One-Click',
    });
    expect(posted.statusCode).toBe(200);
    expect(posted.body).toContain('You are unsubscribed');
    expect(await db().select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, site.email!))).toHaveLength(1);
    const twice = await ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(twice.statusCode).toBe(200);
    const unknown = await ctx.app.inject({ method: 'POST', url: '/api/v2/email/unsubscribe/00000000-0000-4000-8000-000000000000', headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: 'List-Unsubscribe=One-Click' });
    expect(unknown.statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/v2/email/unsubscribe/not-a-token' })).statusCode).toBe(400);

    // The next alert there reaches the others, not this address.
    const neighbour = await siteNear('02108', 4);
    const other = await ownerWithLostPet();
    const next = await sendAndPay(other.token, other.pet.id, { zipCode: '02108' });
    expect(await recipientsOf(next.id)).toEqual([neighbour.email]);
  });
});

describe('PUT pet/mark-as-found', () => {
  it('ends the alert, tells each recipient who got it once, and the public profile shows Found', async () => {
    const { token, pet } = await ownerWithLostPet();
    const [got, refused, waiting] = [await siteNear('80202', 1), await siteNear('80202', 2), await siteNear('80202', 3)];
    const alert = await sendAndPay(token, pet.id, { zipCode: '80202' });
    const mine = inArray(alertEmails.recipient, [got.email!, refused.email!, waiting.email!]);
    await db().update(alertEmails).set({ status: 'delivered', deliveredAt: new Date() }).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, got.email!)));
    await db().update(alertEmails).set({ status: 'bounced' }).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, refused.email!)));

    const stranger = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token: stranger.token })).status).toBe(403);
    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`)).status).toBe(401);
    expect((await db().select().from(petAlerts).where(eq(petAlerts.id, alert.id)))[0]!.status).toBe('paid');

    const found = await call<{ id: number }>(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token });
    expect(found.status).toBe(200);
    expect(found.body.result).toEqual({ id: pet.id });
    const ended = (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token })).body.result!;
    expect(ended).toMatchObject({ status: 'found', foundDate: expect.any(String) });
    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));
    expect(row!.status).toBe('found');
    expect(row!.foundDate).toBeInstanceOf(Date);
    expect(row).toMatchObject({ missingDate: null, zipCode: null, incidentDescription: null });
    const profile = await call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${pet.publicId}`);
    expect(profile.body.result!.pet).toMatchObject({ foundSince: expect.stringMatching(/ago$/), alertStatus: null, missingDate: null });
    expect(ended).toMatchObject({ zipCode: '80202', missingDate: expect.any(String) });

    const rows = await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), mine));
    expect(rows.filter((r) => r.kind === 'found').map((r) => r.recipient)).toEqual([got.email]);
    expect(rows.find((r) => r.kind === 'alert' && r.recipient === waiting.email)!.status).toBe('canceled');

    const thanked = await recipientsOf(alert.id, 'found');
    const again = await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token });
    expect(again.status).toBe(404);
    expect(again.body.errors).toEqual([messages.noAlertsFound]);
    expect(await recipientsOf(alert.id, 'found')).toEqual(thanked);

    sentMessages.length = 0;
    await sendDueAlertEmails(db(), collector, settings);
    const thanks = sentMessages.filter((m) => m.to === got.email);
    expect(thanks).toHaveLength(1);
    expect(thanks[0]!.subject).toBe('Found: Biscuit is home, thank you');
    expect(sentMessages.filter((m) => m.to === waiting.email)).toEqual([]);

    // The pet is offered for alerting again.
    expect((await sendAlert(token, pet.id)).status).toBe(200);
  });

  it('answers "No Alerts found for pet" for a pet that never had one', async () => {
    const { token, pet } = await ownerWithLostPet();
    const none = await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token });
    expect(none.status).toBe(404);
    expect(none.body.errors).toEqual([messages.noAlertsFound]);
    const current = await call(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token });
    expect(current.status).toBe(404);
    expect(current.body.errors).toEqual([messages.noAlertsFound]);
  });

  it('ends an alert still waiting for payment: its checkout can no longer send it', async () => {
    const { token, pet } = await ownerWithLostPet();
    const sent = await sendAlert(token, pet.id);
    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token })).status).toBe(200);
    const paid = await payCheckout(token, sent.body.result!.location);
    expect(paid.status).toBe(409);
    expect((await db().select().from(petAlerts).where(eq(petAlerts.petId, pet.id)))[0]!.status).toBe('found');
    // Never announced as lost: the pet is not shown as Found either, only no longer missing.
    const [row] = await db().select().from(pets).where(eq(pets.id, pet.id));
    expect(row).toMatchObject({ foundDate: null, missingDate: null, zipCode: null, incidentDescription: null });
    expect(row!.status).not.toBe('found');
  });

  it("lets an administrator read and end another owner's alert", async () => {
    const { token, pet } = await ownerWithLostPet();
    const alert = await sendAndPay(token, pet.id);
    await ensureAdministrator(db(), { email: 'alerts-admin@example.com', password: 'Admin#Pass1' });
    const admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'alerts-admin@example.com', password: 'Admin#Pass1' } })).body.result!;
    expect((await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token: admin.token })).body.result).toMatchObject({ id: alert.id, name: 'Biscuit' });
    expect((await call(ctx.app, 'GET', `email/${alert.id}/getEmailStats`, { token: admin.token })).status).toBe(200);
    expect((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token: admin.token })).status).toBe(200);
  });

  it('thanks a recipient whose alert the mail server was taking while the pet was marked found', async () => {
    const { token, pet } = await ownerWithLostPet();
    const site = await siteNear('85004', 1);
    const alert = await sendAndPay(token, pet.id, { zipCode: '85004' });
    sentMessages.length = 0;
    // A throw inside send counts as a failed send, so the answer is checked after the run.
    const markedStatuses: number[] = [];
    const markedMidSend: Mailer = {
      async send(message) {
        if (message.to === site.email) markedStatuses.push((await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token })).status);
        sentMessages.push(message);
      },
    };
    await sendDueAlertEmails(db(), markedMidSend, settings);
    expect(markedStatuses).toEqual([200]);
    expect(await recipientsOf(alert.id, 'found')).toEqual([site.email]);
    await sendDueAlertEmails(db(), collector, settings);
    expect(sentMessages.filter((m) => m.to === site.email).map((m) => m.subject)).toEqual([
      'Lost dog: Biscuit, last seen near Phoenix, AZ 85004',
      'Found: Biscuit is home, thank you',
    ]);
  });

  it('does not send an alert whose claim ran out after the pet was found', async () => {
    const { token, pet } = await ownerWithLostPet();
    const site = await siteNear('33101', 1);
    const alert = await sendAndPay(token, pet.id, { zipCode: '33101' });
    // The worker has claimed the row (sending) when the owner marks the pet found.
    await db().update(alertEmails).set({ status: 'sending', nextAttemptAt: new Date(0) }).where(eq(alertEmails.alertId, alert.id));
    await call(ctx.app, 'PUT', `pet/mark-as-found/${pet.id}`, { token });
    expect(await recipientsOf(alert.id, 'found')).toEqual([]);
    sentMessages.length = 0;
    // The claim ran out: the alert is no longer due, so it is not sent; nothing to thank.
    await sendDueAlertEmails(db(), collector, settings);
    expect(sentMessages.filter((m) => m.to === site.email)).toEqual([]);
    expect((await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alert.id), eq(alertEmails.recipient, site.email!))))[0]!.status).toBe('canceled');
  });
});

describe('a name stored with a line break before names were held to one line', () => {
  it('stays on one line in the alert e-mail and its subject: it forges no line of the plain text', async () => {
    const { token, pet } = await ownerWithLostPet();
    const near = await siteNear('78702', 5);
    await sendAndPay(token, pet.id, { zipCode: '78702' });
    const forged = 'Biscuit\r\nReward! Call 555-0199 now\u2028';
    await db().update(pets).set({ name: forged }).where(eq(pets.id, pet.id));
    await sendDueAlertEmails(db(), collector, settings);
    const mail = sentMessages.find((m) => m.to === near.email)!;
    expect(mail.subject).toBe('Lost dog: Biscuit Reward! Call 555-0199 now , last seen near Austin, TX 78702');
    expect(mail.text).toContain('LOST DOG: Biscuit Reward! Call 555-0199 now \n');
    expect(mail.text.split('\n').filter((line) => line.startsWith('Reward!'))).toEqual([]);
  });
});

const sentMessages: MailMessage[] = [];
/** A mailer that keeps what it is given: each message the mail server would have accepted. */
const collector: Mailer = { send: async (message) => void sentMessages.push(message) };

describe('the embedded outbox', () => {
  it('writes the alert e-mails as .eml files with their headers', async () => {
    const { token, pet } = await ownerWithLostPet();
    const site = await siteNear('60601', 1);
    await sendAndPay(token, pet.id, { zipCode: '60601' });
    await sendDueAlertEmails(db(), createMailer({ from: settings.mailFrom, outboxDir: ctx.outboxDir }), settings);
    const mails = await readOutbox(ctx.outboxDir);
    const mail = mails.find((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text === site.email)!;
    const header = (key: string) => mail.headerLines.find((h) => h.key === key)?.line.replace(/\r?\n\s+/g, ' ');
    expect(header('list-unsubscribe-post')).toBe('List-Unsubscribe-Post: List-Unsubscribe=One-Click');
    expect(header('list-unsubscribe')).toMatch(
      /^List-Unsubscribe: <http:\/\/localhost:3000\/api\/v2\/email\/unsubscribe\/[0-9a-f-]{36}>, <mailto:alerts@registry\.example\?subject=unsubscribe%20[0-9a-f-]{36}>$/,
    );
  });

  it('writes a subject holding a line break on one header line', async () => {
    const outboxDir = join(ctx.outboxDir, 'one-line-subject');
    await createMailer({ from: settings.mailFrom, outboxDir }).send({ to: 'a@example.com', subject: 'Rex\r\nBcc: b@example.com', text: 'x' });
    const [mail] = await readOutbox(outboxDir);
    expect(mail!.subject).toBe('Rex Bcc: b@example.com');
    expect(mail!.bcc).toBeUndefined();
  });

  it('names its files so that they sort in the order written, within one millisecond, and with the clock set back', async () => {
    const outboxDir = join(ctx.outboxDir, 'in-order');
    const mailer = createMailer({ from: settings.mailFrom, outboxDir });
    const subjects = Array.from({ length: 30 }, (_, i) => `Link ${i}`);
    vi.useFakeTimers({ toFake: ['Date'] });
    try {
      vi.setSystemTime(new Date('2026-12-07T12:00:00.000Z'));
      for (const subject of subjects.slice(0, 20)) await mailer.send({ to: 'a@example.com', subject, text: 'x' });
      vi.setSystemTime(new Date('2026-12-07T11:59:00.000Z'));
      for (const subject of subjects.slice(20)) await mailer.send({ to: 'a@example.com', subject, text: 'x' });
    } finally {
      vi.useRealTimers();
    }
    expect((await readOutbox(outboxDir)).map((m) => m.subject)).toEqual(subjects);
  });
});
