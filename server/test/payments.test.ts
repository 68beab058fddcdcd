import { messages, type AuthResult, type BillingOverview, type CheckoutOrder, type LifetimePrice, type MicrochipSubscription, type PaymentCompletion, type Pet, type User } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { checkoutSessions, chips, mailOutbox, payments, pets, settings } from '../src/db/schema.js';
import { MailServerUnavailableError } from '../src/adapters/mail/index.js';
import { unusedCoverCredit } from '../src/modules/payments/pricing.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { call, createTestApp, readOutbox, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

/** The receipts mailed to the address (an owner is also mailed the sign-up's confirmation link). */
const receiptsTo = (email: string) => and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'receipt'));

let ctx: TestContext;
let yearly: number;
let lifetime: number;

beforeAll(async () => {
  ctx = await createTestApp();
  const { body } = await call<{ plans: { id: number; oneTime: boolean; planPrice: number }[] }>(ctx.app, 'GET', 'pet/plans');
  yearly = body.result!.plans.find((p) => !p.oneTime)!.id;
  lifetime = body.result!.plans.find((p) => p.oneTime)!.id;
});
afterAll(() => ctx.close());

const DAY = 86_400_000;

/** An owner with a chipped pet whose plan is chosen, ready to check out. */
async function ownerWithPlan(planId: number, chipId = uniqueChip()) {
  const owner = await signUpOwner(ctx.app);
  const pet = await registerPet(ctx.app, owner.token, chipId);
  expect((await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId } })).body.result).toEqual({ id: pet.id });
  return { ...owner, pet };
}

async function startCheckout(token: string, petId: number, query = 'petFlow=false&isTagSelected=false') {
  return call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${petId}?${query}`, { token });
}

const sessionIdOf = (location: string) => location.split('/checkout/')[1]!;

async function pay(token: string, sessionId: string, cardNumber = '4242 4242 4242 4242', expiry = '12/39') {
  return call<{ location: string }>(ctx.app, 'POST', `checkout/local/${sessionId}/pay`, {
    token,
    body: { name: 'Jamie Rivera', cardNumber, expiry, cvc: '123' },
  });
}

async function petOf(token: string, id: number) {
  return (await call<Pet>(ctx.app, 'GET', `Pet/${id}`, { token })).body.result!;
}

describe('plans', () => {
  it('lists yearly and lifetime protection, and the collar tag price', async () => {
    const { body } = await call<{ plans: { name: string; planPrice: number; oneTime: boolean; currency: string }[] }>(ctx.app, 'GET', 'pet/plans');
    expect(body.result!.plans).toEqual([
      expect.objectContaining({ name: 'Yearly Protection', planPrice: 19.95, oneTime: false, currency: 'usd' }),
      expect.objectContaining({ name: 'Lifetime Protection', planPrice: 49.95, oneTime: true }),
    ]);
    expect((await call<{ planPrice: number }>(ctx.app, 'GET', 'pet/collar-tag-plan')).body.result!.planPrice).toBe(24.99);
  });

  it("sets a pet's plan only for its owner and only to a real plan", async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token);
    expect((await call(ctx.app, 'PUT', 'Pet/update-plan', { token: other.token, body: { id: pet.id, planId: yearly } })).status).toBe(403);
    const bad = await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: 9999 } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([messages.planNotFound]);
    expect((await petOf(owner.token, pet.id)).planId).toBeNull();
  });
});

describe('checkout on the portal', () => {
  it('pays a yearly plan: the chip is registered for a year, the owner becomes a paying member, a receipt is queued', async () => {
    const owner = await ownerWithPlan(yearly);
    const started = await startCheckout(owner.token, owner.pet.id);
    expect(started.status).toBe(200);
    expect(started.body.result!.location).toMatch(/^http:\/\/localhost:3000\/checkout\/cs_local_/);
    const sessionId = sessionIdOf(started.body.result!.location);

    const order = await call<CheckoutOrder>(ctx.app, 'GET', `checkout/local/${sessionId}`, { token: owner.token });
    expect(order.body.result).toMatchObject({ petName: 'Biscuit', planName: 'Yearly Protection', totalCents: 1995, coupon: null, status: 'open' });

    const paid = await pay(owner.token, sessionId);
    expect(paid.status).toBe(200);
    expect(paid.body.result!.location).toBe(`/pet-registration-complete?session_id=${sessionId}`);

    const completion = await call<PaymentCompletion>(ctx.app, 'GET', `payment/complete/${sessionId}`, { token: owner.token });
    expect(completion.body.result).toMatchObject({
      customerEmail: owner.input.email,
      firstName: 'Jamie',
      currency: 'usd',
      orderTotal: 1995,
      coupon: null,
      petId: owner.pet.id,
    });

    const pet = await petOf(owner.token, owner.pet.id);
    expect(pet.isActive).toBe(true);
    expect(pet.planId).toBe(yearly);
    expect(pet.chips[0]).toMatchObject({ isActive: true, oneTime: false });
    const expires = Date.parse(pet.chips[0]!.expirationDate!);
    expect(Math.abs(expires - (Date.now() + 365 * DAY))).toBeLessThan(2 * DAY);

    const user = (await call<User>(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).body.result!;
    expect(user.role).toEqual(['customer', 'paidcustomer']);
    expect(user.data.haveSubscriptions).toBe(true);
    expect(user.data.haveActivePets).toBe(true);

    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
    expect(payment).toMatchObject({ cardLast4: '4242', amountCents: 1995, currency: 'usd', status: 'paid', customerName: 'Jamie Rivera', provider: 'local' });
    const receipts = await ctx.database.db.select().from(mailOutbox).where(receiptsTo(owner.input.email));
    expect(receipts).toHaveLength(1);
    expect(receipts[0]!.subject).toBe('Biscuit is protected');
  });

  it('never pays, extends or e-mails twice for the same session', async () => {
    const owner = await ownerWithPlan(yearly);
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    await pay(owner.token, sessionId);
    const expiry = (await petOf(owner.token, owner.pet.id)).chips[0]!.expirationDate;

    const again = await pay(owner.token, sessionId);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.checkoutClosed]);
    const replay = { sessionId, paymentId: 'pi_x', subscriptionId: null, cardLast4: '4242', amountCents: 1995, currency: 'usd', customerName: null, customerEmail: null };
    await ctx.app.payments.complete(replay);
    await ctx.app.payments.complete(replay);
    for (let i = 0; i < 2; i++) await call(ctx.app, 'GET', `payment/complete/${sessionId}`, { token: owner.token });

    expect(await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId))).toHaveLength(1);
    expect(await ctx.database.db.select().from(mailOutbox).where(receiptsTo(owner.input.email))).toHaveLength(1);
    expect((await petOf(owner.token, owner.pet.id)).chips[0]!.expirationDate).toBe(expiry);
  });

  it('declines card 4000 0000 0000 0002 and changes nothing', async () => {
    const owner = await ownerWithPlan(yearly);
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    const declined = await pay(owner.token, sessionId, '4000 0000 0000 0002');
    expect(declined.status).toBe(402);
    expect(declined.body.errors).toEqual([messages.cardDeclined]);
    expect((await petOf(owner.token, owner.pet.id)).isActive).toBe(false);
    expect(await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId))).toHaveLength(0);
    const completion = await call(ctx.app, 'GET', `payment/complete/${sessionId}`, { token: owner.token });
    expect(completion.status).toBe(409);
    expect(completion.body.errors).toEqual([messages.paymentNotComplete]);
    expect((await pay(owner.token, sessionId)).status).toBe(200);
  });

  it.each([
    ['4111 1111 1111 1111', '12/39', messages.testCardsOnly],
    ['4242 4242 4242 4242', '01/20', messages.cardExpired],
    ['4242', '12/39', messages.cardNumberInvalid],
    ['4242 4242 4242 4242', '13/39', messages.cardExpiryInvalid],
  ])('refuses card %s expiring %s', async (cardNumber, expiry, message) => {
    const owner = await ownerWithPlan(yearly);
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    const { status, body } = await pay(owner.token, sessionId, cardNumber, expiry);
    expect(status).toBe(400);
    expect(body.errors).toEqual([message]);
  });

  it('applies coupon STL2025 (75% off) to a Save This Life chip, and refuses it for any other chip', async () => {
    const saver = await ownerWithPlan(yearly, uniqueChip('900164'));
    const order = await call<CheckoutOrder>(ctx.app, 'GET', `checkout/local/${sessionIdOf((await startCheckout(saver.token, saver.pet.id, 'coupon=STL2025')).body.result!.location)}`, {
      token: saver.token,
    });
    expect(order.body.result).toMatchObject({ coupon: 'STL2025', discountCents: 1496, totalCents: 499 });

    const other = await ownerWithPlan(yearly);
    const refused = await startCheckout(other.token, other.pet.id, 'coupon=STL2025');
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([messages.couponNotEligible]);
  });

  it('sells the QR collar tag only while it is offered and in stock (out of stock by default)', async () => {
    const owner = await ownerWithPlan(lifetime);
    const outOfStock = await startCheckout(owner.token, owner.pet.id, 'isTagSelected=true');
    expect(outOfStock.status).toBe(400);
    expect(outOfStock.body.errors).toEqual([messages.collarTagUnavailable]);
    expect((await call<{ inStock: boolean }>(ctx.app, 'GET', 'pet/collar-tag-plan')).body.result!.inStock).toBe(false);

    await ctx.database.db.update(settings).set({ value: true }).where(eq(settings.key, 'collarTagInStock'));
    try {
      const withTag = await startCheckout(owner.token, owner.pet.id, 'petFlow=true&isTagSelected=true');
      const order = await call<CheckoutOrder>(ctx.app, 'GET', `checkout/local/${sessionIdOf(withTag.body.result!.location)}`, { token: owner.token });
      expect(order.body.result).toMatchObject({ collarTagCents: 2499, totalCents: 4995 + 2499 });
    } finally {
      await ctx.database.db.update(settings).set({ value: false }).where(eq(settings.key, 'collarTagInStock'));
    }
  });

  it('refuses a yearly plan for a pet with lifetime protection', async () => {
    const owner = await ownerWithPlan(lifetime);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: owner.pet.id, planId: yearly } });
    const refused = await startCheckout(owner.token, owner.pet.id);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.alreadyLifetime]);
    expect((await petOf(owner.token, owner.pet.id)).chips[0]).toMatchObject({ oneTime: true, expirationDate: null });
  });

  it("locks a registered pet's chip number against the owner's edits", async () => {
    const owner = await ownerWithPlan(yearly, uniqueChip('900164'));
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const pet = await petOf(owner.token, owner.pet.id);
    const edit = { id: pet.id, name: pet.name, speciesId: pet.speciesId, chipTypeId: pet.chips[0]!.chipTypeId };
    for (const chipId of [uniqueChip(), '']) {
      const { status, body } = await call(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: { ...edit, chipId, confirmChip: chipId } });
      expect(status).toBe(409);
      expect(body.errors).toEqual([messages.registeredChipLocked]);
    }
    expect((await petOf(owner.token, owner.pet.id)).microchip1).toBe(pet.microchip1);
  });

  it('needs a plan and a chip before checkout', async () => {
    const owner = await signUpOwner(ctx.app);
    const noPlan = await registerPet(ctx.app, owner.token);
    expect((await startCheckout(owner.token, noPlan.id)).body.errors).toEqual([messages.planNotFound]);
    const noChip = await registerPet(ctx.app, owner.token, null);
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: noChip.id, planId: yearly } });
    expect((await startCheckout(owner.token, noChip.id)).body.errors).toEqual([messages.petNeedsChip]);
    // A refused upgrade changes nothing: the plan chosen before stays.
    const upgrade = await call(ctx.app, 'POST', `checkout/upgrade-subscription/${noChip.id}`, { token: owner.token });
    expect(upgrade.status).toBe(400);
    expect(upgrade.body.errors).toEqual([messages.petNeedsChip]);
    expect((await petOf(owner.token, noChip.id)).planId).toBe(yearly);
  });

  it('renews a yearly plan from the current expiry, not from today, and keeps one subscription', async () => {
    const owner = await ownerWithPlan(yearly);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const first = Date.parse((await petOf(owner.token, owner.pet.id)).chips[0]!.expirationDate!);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const second = Date.parse((await petOf(owner.token, owner.pet.id)).chips[0]!.expirationDate!);
    expect(Math.round((second - first) / DAY)).toBeGreaterThanOrEqual(365);
    const subscriptions = (await call<MicrochipSubscription[]>(ctx.app, 'GET', 'pet/microchip-subscriptions', { token: owner.token })).body.result!;
    expect(subscriptions.map((s) => s.status)).toEqual(['active', 'canceled']);
  });

  it('upgrades a yearly plan to lifetime and stops the yearly subscription', async () => {
    const owner = await ownerWithPlan(yearly);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${owner.pet.id}`, { token: owner.token });
    expect(upgrade.status).toBe(200);
    await pay(owner.token, sessionIdOf(upgrade.body.result!.location));
    const pet = await petOf(owner.token, owner.pet.id);
    expect(pet.chips[0]).toMatchObject({ isActive: true, oneTime: true, expirationDate: null });
    expect(pet.planId).toBe(lifetime);
    const subscriptions = (await call<MicrochipSubscription[]>(ctx.app, 'GET', 'pet/microchip-subscriptions', { token: owner.token })).body.result!;
    expect(subscriptions.map((s) => [s.planName, s.status])).toEqual([
      ['Lifetime Protection', 'active'],
      ['Yearly Protection', 'canceled'],
    ]);
    const again = await call(ctx.app, 'POST', `checkout/upgrade-subscription/${owner.pet.id}`, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.alreadyLifetime]);
  });

  it('lets the owner cancel the yearly renewal on the billing page; the chip stays registered', async () => {
    const owner = await ownerWithPlan(yearly);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const billing = (await call<BillingOverview>(ctx.app, 'GET', 'payment/billing', { token: owner.token })).body.result!;
    expect(billing.payments).toEqual([expect.objectContaining({ petName: 'Biscuit', planName: 'Yearly Protection', cardLast4: '4242', amountCents: 1995 })]);
    const subscription = billing.subscriptions[0]!;
    expect(subscription.status).toBe('active');
    const stranger = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'POST', `payment/subscriptions/${subscription.id}/cancel`, { token: stranger.token })).status).toBe(403);
    expect((await call<BillingOverview>(ctx.app, 'GET', 'payment/billing', { token: owner.token })).body.result!.subscriptions[0]!.status).toBe('active');
    expect((await call(ctx.app, 'POST', `payment/subscriptions/${subscription.id}/cancel`, { token: owner.token })).status).toBe(200);
    const again = await call(ctx.app, 'POST', `payment/subscriptions/${subscription.id}/cancel`, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.checkoutClosed]);
    const after = (await call<BillingOverview>(ctx.app, 'GET', 'payment/billing', { token: owner.token })).body.result!;
    expect(after.subscriptions[0]!.status).toBe('canceled');
    expect((await petOf(owner.token, owner.pet.id)).isActive).toBe(true);

    const link = await call<string>(ctx.app, 'GET', `utilities/stripe-dashboard?uid=${owner.user.id}`, { token: owner.token });
    expect(link.body.result).toBe('http://localhost:3000/billing');
  });

  it("keeps owners away from each other's checkouts and billing", async () => {
    const owner = await ownerWithPlan(yearly);
    const intruder = await signUpOwner(ctx.app);
    expect((await startCheckout(intruder.token, owner.pet.id)).status).toBe(403);
    expect((await call(ctx.app, 'POST', `checkout/upgrade-subscription/${owner.pet.id}`, { token: intruder.token })).status).toBe(403);
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    expect((await call(ctx.app, 'GET', `checkout/local/${sessionId}`, { token: intruder.token })).status).toBe(403);
    expect((await pay(intruder.token, sessionId)).status).toBe(403);
    expect((await call(ctx.app, 'GET', `payment/complete/${sessionId}`, { token: intruder.token })).status).toBe(403);
    expect((await call(ctx.app, 'GET', `utilities/stripe-dashboard?uid=${owner.user.id}`, { token: intruder.token })).status).toBe(403);
    expect((await petOf(owner.token, owner.pet.id)).isActive).toBe(false);
    expect((await call(ctx.app, 'GET', `checkout/stripe-subscription/${owner.pet.id}`)).status).toBe(401);
  });
});

/** The owner's edit form saved with another chip number ('' removes the chip): PUT Pet/{id}. */
async function changeChip(token: string, petId: number, chipId: string, path = `Pet/${petId}`) {
  const pet = await petOf(token, petId);
  const body = { id: pet.id, name: pet.name, speciesId: pet.speciesId, chipTypeId: chipId ? (pet.chips[0]?.chipTypeId ?? null) : null, chipId, confirmChip: chipId };
  const saved = await call<Pet>(ctx.app, 'PUT', path, { token, body });
  expect(saved.status).toBe(200);
}

const orderOf = async (token: string, sessionId: string) => (await call<CheckoutOrder>(ctx.app, 'GET', `checkout/local/${sessionId}`, { token })).body.result!;

describe('never more cover than was paid', () => {
  it('ends an open checkout when the chip changes, so a coupon never follows the chip', async () => {
    const owner = await ownerWithPlan(lifetime, uniqueChip('900164'));
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id, 'coupon=STL2025')).body.result!.location);
    expect((await orderOf(owner.token, sessionId)).totalCents).toBe(1249);
    await changeChip(owner.token, owner.pet.id, uniqueChip('985'));

    const refused = await pay(owner.token, sessionId);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.checkoutClosed]);
    expect((await orderOf(owner.token, sessionId)).status).toBe('canceled');
    expect(await petOf(owner.token, owner.pet.id)).toMatchObject({ isActive: false, isChipActive: false });
    expect(await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId))).toHaveLength(0);
  });

  it.each([['Pet/pet-profile'], ['Pet/{id}']])('ends an open checkout when %s removes the chip', async (path) => {
    const owner = await ownerWithPlan(yearly);
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    await changeChip(owner.token, owner.pet.id, '', path.replace('{id}', String(owner.pet.id)));
    const refused = await pay(owner.token, sessionId);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.checkoutClosed]);
    expect((await petOf(owner.token, owner.pet.id)).isActive).toBe(false);
  });

  it('refuses a checkout whose chip is no longer the pet\'s, or whose pet has no chip, even when the change raced it', async () => {
    const changed = await ownerWithPlan(yearly, uniqueChip('900164'));
    const changedSession = sessionIdOf((await startCheckout(changed.token, changed.pet.id, 'coupon=STL2025')).body.result!.location);
    // What a change between reading and completing would leave: another chip and the checkout still open.
    await ctx.database.db.update(chips).set({ removedAt: new Date() }).where(eq(chips.petId, changed.pet.id));
    await ctx.database.db.insert(chips).values({ petId: changed.pet.id, chipId: uniqueChip('985') });
    const refused = await pay(changed.token, changedSession);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.checkoutChipChanged]);
    expect((await petOf(changed.token, changed.pet.id)).chips[0]).toMatchObject({ isActive: false, expirationDate: null });

    const removed = await ownerWithPlan(yearly);
    const removedSession = sessionIdOf((await startCheckout(removed.token, removed.pet.id)).body.result!.location);
    await ctx.database.db.update(chips).set({ removedAt: new Date() }).where(eq(chips.petId, removed.pet.id));
    const noChip = await pay(removed.token, removedSession);
    expect(noChip.status).toBe(409);
    expect(noChip.body.errors).toEqual([messages.petNeedsChip]);
    expect((await petOf(removed.token, removed.pet.id)).isActive).toBe(false);
  });

  it('refuses a checkout whose plan is no longer the pet\'s chosen plan, even when the change raced its start', async () => {
    const owner = await ownerWithPlan(yearly);
    const session = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    // What a plan chosen while the provider was still creating the session would leave: the checkout open.
    await ctx.database.db.update(pets).set({ planId: lifetime }).where(eq(pets.id, owner.pet.id));
    const refused = await pay(owner.token, session);
    expect(refused.status).toBe(409);
    expect(refused.body.errors).toEqual([messages.checkoutPlanChanged]);
    expect((await petOf(owner.token, owner.pet.id)).chips[0]).toMatchObject({ isActive: false, expirationDate: null });
  });

  it('ends the open checkouts of a pet whose plan is chosen again; the new checkout pays', async () => {
    const owner = await ownerWithPlan(yearly);
    const older = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: owner.pet.id, planId: lifetime } });
    const newer = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    expect((await pay(owner.token, newer)).status).toBe(200);
    const stale = await pay(owner.token, older);
    expect(stale.status).toBe(409);
    expect(stale.body.errors).toEqual([messages.checkoutClosed]);
    expect((await petOf(owner.token, owner.pet.id)).chips[0]).toMatchObject({ isActive: true, oneTime: true, expirationDate: null });
  });

  it('never downgrades lifetime protection nor sells it twice, whichever checkout is paid last', async () => {
    const owner = await ownerWithPlan(lifetime);
    const first = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    const second = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    expect((await pay(owner.token, first)).status).toBe(200);
    const twice = await pay(owner.token, second);
    expect(twice.status).toBe(409);
    expect(twice.body.errors).toEqual([messages.alreadyLifetime]);
    expect((await orderOf(owner.token, second)).status).toBe('canceled');

    // A yearly checkout still open when lifetime was bought (its plan changed behind it).
    const yearlyOwner = await ownerWithPlan(yearly);
    const stale = sessionIdOf((await startCheckout(yearlyOwner.token, yearlyOwner.pet.id)).body.result!.location);
    await ctx.database.db.update(chips).set({ isActive: true, oneTime: true }).where(eq(chips.petId, yearlyOwner.pet.id));
    const downgrade = await pay(yearlyOwner.token, stale);
    expect(downgrade.status).toBe(409);
    expect(downgrade.body.errors).toEqual([messages.alreadyLifetime]);
    expect((await petOf(yearlyOwner.token, yearlyOwner.pet.id)).chips[0]).toMatchObject({ oneTime: true, expirationDate: null });
    expect(await ctx.database.db.select().from(payments).where(eq(payments.userId, owner.user.id))).toHaveLength(1);
    expect(await ctx.database.db.select().from(mailOutbox).where(receiptsTo(owner.input.email))).toHaveLength(1);
  });

  it("cancels the lifetime upgrade back to the pet's page, and a plan checkout back to the plan choice", async () => {
    const owner = await ownerWithPlan(yearly);
    const plain = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    expect((await orderOf(owner.token, plain)).cancelUrl).toBe(`/client/pet/checkout/${owner.pet.id}`);
    await pay(owner.token, plain);
    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${owner.pet.id}`, { token: owner.token });
    const upgradeSession = sessionIdOf(upgrade.body.result!.location);
    expect((await orderOf(owner.token, upgradeSession)).cancelUrl).toBe(`/client/pet/update/${owner.pet.id}`);
    const stranger = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'POST', `checkout/local/${upgradeSession}/cancel`, { token: stranger.token })).status).toBe(403);
    expect((await orderOf(owner.token, upgradeSession)).status).toBe('open');
    const canceled = await call<{ location: string }>(ctx.app, 'POST', `checkout/local/${upgradeSession}/cancel`, { token: owner.token });
    expect(canceled.body.result!.location).toBe(`/client/pet/update/${owner.pet.id}`);
    const again = await call(ctx.app, 'POST', `checkout/local/${upgradeSession}/cancel`, { token: owner.token });
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.checkoutClosed]);
    // A paid checkout is not canceled either.
    const paidCancel = await call(ctx.app, 'POST', `checkout/local/${plain}/cancel`, { token: owner.token });
    expect(paidCancel.status).toBe(409);
    expect((await orderOf(owner.token, plain)).status).toBe('complete');
  });
});

describe('upgrading yearly cover to lifetime', () => {
  it('credits the unused days of a yearly period, pro rata, in whole cents, never more than the price', () => {
    const expiry = new Date('2027-03-01T12:00:00Z');
    // The day after paying: 364 of 365 days unused.
    expect(unusedCoverCredit(1995, expiry, new Date('2026-03-02T12:00:00Z'), 4995)).toBe(1989);
    expect(unusedCoverCredit(1995, expiry, new Date('2026-03-02T12:00:01Z'), 4995)).toBe(1989);
    expect(unusedCoverCredit(1995, expiry, new Date('2026-09-01T11:00:00Z'), 4995)).toBe(994);
    expect(unusedCoverCredit(1995, expiry, new Date('2027-02-28T13:00:00Z'), 4995)).toBe(5);
    expect(unusedCoverCredit(1995, expiry, expiry, 4995)).toBe(0);
    expect(unusedCoverCredit(1995, expiry, new Date('2027-03-02T12:00:00Z'), 4995)).toBe(0);
    // Renewed early, more than a period ahead: one period's payment at most, and never over the cap.
    expect(unusedCoverCredit(1995, expiry, new Date('2025-06-01T12:00:00Z'), 4995)).toBe(1995);
    expect(unusedCoverCredit(1995, expiry, new Date('2026-03-02T12:00:00Z'), 1000)).toBe(1000);
  });

  /** An owner whose pet's yearly cover was paid yesterday (its expiry moved a day nearer). */
  async function paidYearlyYesterday(chipId = uniqueChip()) {
    const owner = await ownerWithPlan(yearly, chipId);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const [chip] = await ctx.database.db.select().from(chips).where(eq(chips.petId, owner.pet.id));
    await ctx.database.db.update(chips).set({ expirationDate: new Date(chip!.expirationDate!.getTime() - DAY) }).where(eq(chips.id, chip!.id));
    return owner;
  }

  it('takes the unused part of the yearly cover off the lifetime price: plan page, checkout, charge and receipt', async () => {
    const owner = await paidYearlyYesterday();
    const price = await call<LifetimePrice>(ctx.app, 'GET', `checkout/lifetime-price/${owner.pet.id}`, { token: owner.token });
    expect(price.body.result).toEqual({ planPriceCents: 4995, coupon: null, discountCents: 0, creditCents: 1989, totalCents: 3006, currency: 'usd' });

    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${owner.pet.id}`, { token: owner.token });
    const sessionId = sessionIdOf(upgrade.body.result!.location);
    expect(await orderOf(owner.token, sessionId)).toMatchObject({ planPriceCents: 4995, discountCents: 0, creditCents: 1989, totalCents: 3006 });
    expect((await pay(owner.token, sessionId)).status).toBe(200);
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
    expect(payment).toMatchObject({ status: 'paid', amountCents: 3006 });
    const receipts = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, owner.input.email));
    const receipt = receipts.find((m) => m.text.includes('Lifetime Protection'))!;
    expect(receipt.text).toContain('We received $30.06 for Lifetime Protection');
    expect(receipt.text).toContain('Credit for unused yearly cover: -$19.89. Total paid: $30.06.');
    expect(receipt.html).toContain('Credit for unused yearly cover: -$19.89.');
    expect((await petOf(owner.token, owner.pet.id)).chips[0]).toMatchObject({ oneTime: true, expirationDate: null });
  });

  it('credits what was paid (the coupon price), and takes it off the coupon price of lifetime', async () => {
    const owner = await paidYearlyYesterday(uniqueChip('900164'));
    const price = (await call<LifetimePrice>(ctx.app, 'GET', `checkout/lifetime-price/${owner.pet.id}`, { token: owner.token })).body.result!;
    // 499 paid for the year, 364 days of 365 unused; lifetime 4995 less 75% is 1249.
    expect(price).toMatchObject({ coupon: 'STL2025', discountCents: 3746, creditCents: 497, totalCents: 752 });
    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${owner.pet.id}`, { token: owner.token });
    expect(await orderOf(owner.token, sessionIdOf(upgrade.body.result!.location))).toMatchObject({ discountCents: 3746, creditCents: 497, totalCents: 752 });
  });

  it('credits nothing without paid yearly cover, and tells the price to the owner and an administrator only', async () => {
    const owner = await ownerWithPlan(lifetime);
    const price = await call<LifetimePrice>(ctx.app, 'GET', `checkout/lifetime-price/${owner.pet.id}`, { token: owner.token });
    expect(price.body.result).toMatchObject({ creditCents: 0, totalCents: 4995 });
    const sessionId = sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location);
    expect(await orderOf(owner.token, sessionId)).toMatchObject({ creditCents: 0, totalCents: 4995 });

    const covered = await paidYearlyYesterday();
    const intruder = await signUpOwner(ctx.app);
    const refused = await call(ctx.app, 'GET', `checkout/lifetime-price/${covered.pet.id}`, { token: intruder.token });
    expect(refused.status).toBe(403);
    expect(refused.body.errors).toEqual([messages.forbidden]);
    expect((await call(ctx.app, 'GET', `checkout/lifetime-price/${covered.pet.id}`)).status).toBe(401);
    await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
    const admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
    const asAdmin = await call<LifetimePrice>(ctx.app, 'GET', `checkout/lifetime-price/${covered.pet.id}`, { token: admin.token });
    expect(asAdmin.body.result).toMatchObject({ creditCents: 1989, totalCents: 3006 });
    expect((await call(ctx.app, 'GET', 'checkout/lifetime-price/abc', { token: owner.token })).status).toBe(400);
  });
});

describe('a production portal without Stripe', () => {
  // ALLOW_TEST_PAYMENTS=true makes it a portal like the one above (config.test.ts), whose checkout pays.
  let refusing: TestContext;
  beforeAll(async () => {
    refusing = await createTestApp({ env: { NODE_ENV: 'production' } });
  });
  afterAll(() => refusing.close());

  it('refuses the simulated checkout: nothing opened, and a checkout opened before takes no card', async () => {
    const owner = await signUpOwner(refusing.app);
    const pet = await registerPet(refusing.app, owner.token);
    const plans = (await call<{ plans: { id: number }[] }>(refusing.app, 'GET', 'pet/plans')).body.result!.plans;
    await call(refusing.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: plans[0]!.id } });
    const started = await call(refusing.app, 'GET', `checkout/stripe-subscription/${pet.id}`, { token: owner.token });
    expect(started.status).toBe(503);
    expect(started.body.errors).toEqual([messages.testPaymentsRefused]);
    expect(await refusing.database.db.$count(checkoutSessions)).toBe(0);

    await refusing.database.db.insert(checkoutSessions).values({
      id: 'cs_local_before_the_switch',
      provider: 'local',
      userId: owner.user.id,
      petId: pet.id,
      planId: plans[0]!.id,
      amountCents: 1995,
      currency: 'usd',
      cancelPath: '/client',
    });
    const paid = await call(refusing.app, 'POST', 'checkout/local/cs_local_before_the_switch/pay', {
      token: owner.token,
      body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
    });
    expect(paid.status).toBe(503);
    expect(paid.body.errors).toEqual([messages.testPaymentsRefused]);
    expect(await refusing.database.db.$count(payments)).toBe(0);
    expect((await call<Pet>(refusing.app, 'GET', `Pet/${pet.id}`, { token: owner.token })).body.result!.isActive).toBe(false);
  });
});

describe('expiry sweep', () => {
  it('ends yearly registrations past their expiry and leaves lifetime ones', async () => {
    const lapsed = await ownerWithPlan(yearly);
    await pay(lapsed.token, sessionIdOf((await startCheckout(lapsed.token, lapsed.pet.id)).body.result!.location));
    const forever = await ownerWithPlan(lifetime);
    await pay(forever.token, sessionIdOf((await startCheckout(forever.token, forever.pet.id)).body.result!.location));
    await ctx.database.db.update(chips).set({ expirationDate: new Date(Date.now() - DAY) }).where(eq(chips.petId, lapsed.pet.id));

    expect(await ctx.app.payments.expireLapsedRegistrations()).toBeGreaterThanOrEqual(1);
    const pet = await petOf(lapsed.token, lapsed.pet.id);
    expect(pet).toMatchObject({ isActive: false, isChipActive: false, subscriptionExpired: true });
    expect((await petOf(forever.token, forever.pet.id)).isActive).toBe(true);
    expect(await ctx.app.payments.expireLapsedRegistrations()).toBe(0);
  });
});

describe('mail outbox', () => {
  it('sends queued receipts once, and retries later when sending fails', async () => {
    // What earlier tests queued goes first, so the batches below hold this owner's e-mails.
    while ((await sendDueMail(ctx.database.db, { send: async () => {} })) > 0);
    const owner = await ownerWithPlan(yearly);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const failing = { send: () => Promise.reject(new Error('SMTP down')) };
    await sendDueMail(ctx.database.db, failing);
    const [queued] = await ctx.database.db.select().from(mailOutbox).where(receiptsTo(owner.input.email));
    expect(queued).toMatchObject({ status: 'pending', attempts: 1, lastError: 'Error: SMTP down' });
    expect(queued!.nextAttemptAt.getTime()).toBeGreaterThan(Date.now());

    const later = new Date(Date.now() + 3600_000);
    const working = { sent: [] as string[], async send(m: { to: string }) { this.sent.push(m.to); } };
    await sendDueMail(ctx.database.db, working, later);
    await sendDueMail(ctx.database.db, working, later);
    // The receipt and the sign-up's confirmation link, each once.
    expect(working.sent.filter((to) => to === owner.input.email)).toHaveLength(2);
    expect((await readOutbox(ctx.outboxDir)).length).toBe(0);
  });

  it('keeps a receipt waiting, using up no attempt, while the mail server is out of reach', async () => {
    const owner = await ownerWithPlan(yearly);
    await pay(owner.token, sessionIdOf((await startCheckout(owner.token, owner.pet.id)).body.result!.location));
    const unreachable = { send: () => Promise.reject(new MailServerUnavailableError('connect ECONNREFUSED 127.0.0.1:25')) };
    let now = Date.now();
    for (let outage = 0; outage < 12; outage++) {
      now += 3600_000;
      await sendDueMail(ctx.database.db, unreachable, new Date(now));
    }
    const [waiting] = await ctx.database.db.select().from(mailOutbox).where(receiptsTo(owner.input.email));
    expect(waiting).toMatchObject({ status: 'pending', attempts: 0, lastError: 'Error: connect ECONNREFUSED 127.0.0.1:25' });
  });
});
