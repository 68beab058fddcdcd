import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { messages, type AuthResult, type BillingOverview, type PaymentCompletion, type PaymentToRefund, type Pet, type PetAlert, type User } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import Stripe from 'stripe';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, checkoutSessions, chips, mailOutbox, payments } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

const WEBHOOK_SECRET = 'whsec_test_secret';

/**
 * A local stand-in for the few Stripe endpoints the portal calls. It records what it was asked
 * and answers sessions as the test sets them: the SDK talks to it exactly as to Stripe.
 */
const fake = {
  requests: [] as { method: string; path: string; form: URLSearchParams }[],
  sessions: new Map<string, { paid: boolean; mode: string; amount: number; subscription: string | null }>(),
  /** Coupons by id: a one-off one takes its amount off the session it is on. */
  coupons: new Map<string, { amountOff: number | null; duration: string }>(),
  canceled: [] as string[],
  failCancellations: false,
  /** How long a cancellation takes to answer, so that two callers' requests can overlap. */
  cancelDelayMs: 0,
  serial: 0,
};
let server: Server;
/** The receipts mailed to the address (an owner is also mailed the sign-up's confirmation link). */
const receiptsTo = (email: string) => and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, 'receipt'));

let ctx: TestContext;
let yearly: number;
let lifetime: number;

function stripeAnswer(method: string, path: string, form: URLSearchParams): [number, unknown] {
  if (method === 'POST' && path === '/v1/customers') return [200, { id: `cus_${++fake.serial}`, object: 'customer' }];
  if (method === 'POST' && path === '/v1/checkout/sessions') {
    const id = `cs_test_${++fake.serial}`;
    const mode = form.get('mode')!;
    const amountOff = fake.coupons.get(form.get('discounts[0][coupon]') ?? '')?.amountOff ?? 0;
    const amount = Number(form.get('line_items[0][price_data][unit_amount]')) - amountOff;
    fake.sessions.set(id, { paid: false, mode, amount, subscription: null });
    return [200, { id, object: 'checkout.session', url: `https://checkout.stripe.test/${id}` }];
  }
  const session = /^\/v1\/checkout\/sessions\/(cs_test_\d+)$/.exec(path);
  if (method === 'GET' && session) {
    const s = fake.sessions.get(session[1]!);
    if (!s) return [404, { error: { type: 'invalid_request_error', message: 'No such checkout session' } }];
    return [
      200,
      {
        id: session[1],
        object: 'checkout.session',
        payment_status: s.paid ? 'paid' : 'unpaid',
        amount_total: s.amount,
        currency: 'usd',
        customer_details: { name: 'Jamie Rivera', email: 'jamie@example.com' },
        payment_intent: s.mode === 'payment' ? { id: 'pi_123', object: 'payment_intent', payment_method: { id: 'pm_1', card: { last4: '4242' } } } : null,
        subscription: s.subscription ? { id: s.subscription, object: 'subscription', default_payment_method: { id: 'pm_2', card: { last4: '1881' } } } : null,
      },
    ];
  }
  const coupon = /^\/v1\/coupons\/(\w+)$/.exec(path);
  if (method === 'GET' && coupon) {
    return fake.coupons.has(coupon[1]!) ? [200, { id: coupon[1], object: 'coupon' }] : [404, { error: { type: 'invalid_request_error', message: 'No such coupon' } }];
  }
  if (method === 'POST' && path === '/v1/coupons') {
    const id = form.get('id') ?? `co_${++fake.serial}`;
    fake.coupons.set(id, { amountOff: form.has('amount_off') ? Number(form.get('amount_off')) : null, duration: form.get('duration')! });
    return [200, { id, object: 'coupon' }];
  }
  if (method === 'POST' && path === '/v1/billing_portal/sessions') return [200, { id: 'bps_1', url: `https://billing.stripe.test/${form.get('customer')}` }];
  const subscription = /^\/v1\/subscriptions\/(\w+)$/.exec(path);
  if (method === 'DELETE' && subscription) {
    if (fake.failCancellations) return [500, { error: { type: 'api_error', message: 'Stripe is having a bad day' } }];
    fake.canceled.push(subscription[1]!);
    return [200, { id: subscription[1], object: 'subscription', status: 'canceled' }];
  }
  return [404, { error: { type: 'invalid_request_error', message: `unknown ${method} ${path}` } }];
}

beforeAll(async () => {
  server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk) => (body += chunk));
    req.on('end', () => {
      const url = new URL(req.url!, 'http://localhost');
      const form = new URLSearchParams(req.method === 'GET' ? url.search : body);
      fake.requests.push({ method: req.method!, path: url.pathname, form });
      const [status, answer] = stripeAnswer(req.method!, url.pathname, form);
      const delay = req.method === 'DELETE' ? fake.cancelDelayMs : 0;
      setTimeout(() => res.writeHead(status, { 'content-type': 'application/json', 'request-id': 'req_test' }).end(JSON.stringify(answer)), delay);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  ctx = await createTestApp({
    env: {
      STRIPE_SECRET_KEY: 'sk_test_portal',
      STRIPE_WEBHOOK_SECRET: WEBHOOK_SECRET,
      STRIPE_API_URL: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    },
  });
  const { body } = await call<{ plans: { id: number; oneTime: boolean }[] }>(ctx.app, 'GET', 'pet/plans');
  yearly = body.result!.plans.find((p) => !p.oneTime)!.id;
  lifetime = body.result!.plans.find((p) => p.oneTime)!.id;
});

afterAll(async () => {
  await ctx.close();
  server.close();
});

const stripe = new Stripe('sk_test_portal');

/** Posts an event to the webhook, signed as Stripe signs it (or with a wrong signature). */
async function sendWebhook(event: { type: string; data: { object: Record<string, unknown> } }, secret = WEBHOOK_SECRET) {
  const payload = JSON.stringify({ id: `evt_${++fake.serial}`, object: 'event', api_version: '2026-10-28.endive', ...event });
  const signature = stripe.webhooks.generateTestHeaderString({ payload, secret });
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v2/payment/webhook',
    headers: { 'content-type': 'application/json', 'stripe-signature': signature },
    payload,
  });
  return { status: response.statusCode, body: response.json() };
}

async function checkout(planId: number, chipId = uniqueChip()) {
  const owner = await signUpOwner(ctx.app);
  const pet = await registerPet(ctx.app, owner.token, chipId);
  await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId } });
  const started = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=true&isTagSelected=false`, { token: owner.token });
  expect(started.status).toBe(200);
  const sessionId = started.body.result!.location.split('/').at(-1)!;
  return { ...owner, pet, sessionId, location: started.body.result!.location };
}

const petOf = async (token: string, id: number) => (await call<Pet>(ctx.app, 'GET', `Pet/${id}`, { token })).body.result!;

describe('Stripe Checkout', () => {
  it('opens a subscription checkout for the yearly plan and a payment checkout for lifetime', async () => {
    const year = await checkout(yearly);
    expect(year.location).toBe(`https://checkout.stripe.test/${year.sessionId}`);
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form;
    expect(created.get('mode')).toBe('subscription');
    expect(created.get('line_items[0][price_data][recurring][interval]')).toBe('year');
    expect(created.get('line_items[0][price_data][unit_amount]')).toBe('1995');
    expect(created.get('success_url')).toBe('http://localhost:3000/pet-registration-complete?session_id={CHECKOUT_SESSION_ID}');
    expect(created.get('cancel_url')).toBe(`http://localhost:3000/pet-subscription/${year.pet.id}`);

    await checkout(lifetime);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form.get('mode')).toBe('payment');
  });

  it('puts coupon STL2025 on the checkout of a Save This Life chip', async () => {
    await checkout(lifetime, uniqueChip('991010'));
    expect(fake.coupons.has('STL2025')).toBe(true);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form.get('discounts[0][coupon]')).toBe('STL2025');
  });

  it('completes from a signed checkout.session.completed webhook, once however often it is replayed', async () => {
    const buyer = await checkout(lifetime);
    fake.sessions.get(buyer.sessionId)!.paid = true;
    const event = { type: 'checkout.session.completed', data: { object: { id: buyer.sessionId, object: 'checkout.session' } } };
    expect((await sendWebhook(event)).status).toBe(200);
    expect((await sendWebhook(event)).status).toBe(200);

    const pet = await petOf(buyer.token, buyer.pet.id);
    expect(pet.chips[0]).toMatchObject({ isActive: true, oneTime: true, expirationDate: null });
    const rows = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, buyer.sessionId));
    expect(rows).toEqual([expect.objectContaining({ provider: 'stripe', providerPaymentId: 'pi_123', cardLast4: '4242', amountCents: 4995 })]);
    expect(await ctx.database.db.select().from(mailOutbox).where(receiptsTo(buyer.input.email))).toHaveLength(1);

    const completion = await call<PaymentCompletion>(ctx.app, 'GET', `payment/complete/${buyer.sessionId}`, { token: buyer.token });
    expect(completion.body.result).toMatchObject({ orderTotal: 4995, paymentId: 'pi_123', currency: 'usd' });
  });

  it('completes on the Thank You page when the webhook has not arrived yet', async () => {
    const buyer = await checkout(yearly);
    const unpaid = await call(ctx.app, 'GET', `payment/complete/${buyer.sessionId}`, { token: buyer.token });
    expect(unpaid.status).toBe(409);
    Object.assign(fake.sessions.get(buyer.sessionId)!, { paid: true, subscription: 'sub_early' });
    const paid = await call<PaymentCompletion>(ctx.app, 'GET', `payment/complete/${buyer.sessionId}`, { token: buyer.token });
    expect(paid.status).toBe(200);
    expect((await petOf(buyer.token, buyer.pet.id)).isActive).toBe(true);
  });

  it('refuses a webhook with a bad signature and changes nothing', async () => {
    const buyer = await checkout(lifetime);
    fake.sessions.get(buyer.sessionId)!.paid = true;
    const { status, body } = await sendWebhook(
      { type: 'checkout.session.completed', data: { object: { id: buyer.sessionId } } },
      'whsec_someone_else',
    );
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.webhookSignatureInvalid]);
    expect((await petOf(buyer.token, buyer.pet.id)).isActive).toBe(false);
    const unsigned = await ctx.app.inject({ method: 'POST', url: '/api/v2/payment/webhook', headers: { 'content-type': 'application/json' }, payload: '{}' });
    expect(unsigned.statusCode).toBe(400);
  });

  it('extends a yearly registration once per paid renewal invoice', async () => {
    const buyer = await checkout(yearly);
    Object.assign(fake.sessions.get(buyer.sessionId)!, { paid: true, subscription: 'sub_renew' });
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: buyer.sessionId } } });
    const first = Date.parse((await petOf(buyer.token, buyer.pet.id)).chips[0]!.expirationDate!);

    const invoice = {
      type: 'invoice.paid',
      data: {
        object: {
          id: 'in_renewal_1',
          object: 'invoice',
          billing_reason: 'subscription_cycle',
          amount_paid: 1995,
          currency: 'usd',
          parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_renew' } },
        },
      },
    };
    expect((await sendWebhook(invoice)).status).toBe(200);
    await sendWebhook(invoice);
    const second = Date.parse((await petOf(buyer.token, buyer.pet.id)).chips[0]!.expirationDate!);
    expect(Math.round((second - first) / 86_400_000)).toBeGreaterThanOrEqual(365);
    expect(Math.round((second - first) / 86_400_000)).toBeLessThanOrEqual(366);
    expect(await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, 'in_renewal_1'))).toHaveLength(1);
  });

  it('marks a subscription canceled when Stripe ends it; lifetime replaces and cancels a yearly subscription', async () => {
    const buyer = await checkout(yearly);
    Object.assign(fake.sessions.get(buyer.sessionId)!, { paid: true, subscription: 'sub_upgrade' });
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: buyer.sessionId } } });
    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${buyer.pet.id}`, { token: buyer.token });
    const upgradeSession = upgrade.body.result!.location.split('/').at(-1)!;
    fake.sessions.get(upgradeSession)!.paid = true;
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: upgradeSession } } });
    expect(fake.canceled).toContain('sub_upgrade');

    const other = await checkout(yearly);
    Object.assign(fake.sessions.get(other.sessionId)!, { paid: true, subscription: 'sub_ended' });
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: other.sessionId } } });
    await sendWebhook({ type: 'customer.subscription.deleted', data: { object: { id: 'sub_ended', object: 'subscription' } } });
    const subscriptions = (await call<{ status: string }[]>(ctx.app, 'GET', 'pet/microchip-subscriptions', { token: other.token })).body.result!;
    expect(subscriptions[0]!.status).toBe('canceled');
    // The registration itself runs until its expiry.
    const [chip] = await ctx.database.db.select().from(chips).where(eq(chips.petId, other.pet.id));
    expect(chip!.isActive).toBe(true);
  });

  it('takes the unused part of a yearly plan paid yesterday off the lifetime upgrade, as a one-off coupon', async () => {
    const buyer = await checkout(yearly);
    Object.assign(fake.sessions.get(buyer.sessionId)!, { paid: true, subscription: 'sub_credited' });
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: buyer.sessionId } } });
    const [chip] = await ctx.database.db.select().from(chips).where(eq(chips.petId, buyer.pet.id));
    await ctx.database.db.update(chips).set({ expirationDate: new Date(chip!.expirationDate!.getTime() - 86_400_000) }).where(eq(chips.id, chip!.id));

    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${buyer.pet.id}`, { token: buyer.token });
    const upgradeSession = upgrade.body.result!.location.split('/').at(-1)!;
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form;
    expect(created.get('line_items[0][price_data][unit_amount]')).toBe('4995');
    const coupon = created.get('discounts[0][coupon]')!;
    expect(fake.coupons.get(coupon)).toEqual({ amountOff: 1989, duration: 'once' });
    const couponRequest = fake.requests.filter((r) => r.path === '/v1/coupons').at(-1)!.form;
    expect(couponRequest.get('currency')).toBe('usd');
    expect(couponRequest.get('name')).toBe('Credit for unused yearly cover');

    fake.sessions.get(upgradeSession)!.paid = true;
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: upgradeSession } } });
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, upgradeSession));
    expect(payment).toMatchObject({ status: 'paid', amountCents: 3006 });
    const receipts = await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, buyer.input.email));
    const receipt = receipts.find((m) => m.text.includes('Lifetime Protection'))!;
    expect(receipt.text).toContain('Credit for unused yearly cover: -$19.89. Total paid: $30.06.');
    expect(fake.canceled).toContain('sub_credited');
  });

  it('keeps trying to stop a replaced subscription until Stripe confirms', async () => {
    const buyer = await checkout(yearly);
    Object.assign(fake.sessions.get(buyer.sessionId)!, { paid: true, subscription: 'sub_flaky' });
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: buyer.sessionId } } });
    fake.failCancellations = true;
    const upgrade = await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${buyer.pet.id}`, { token: buyer.token });
    const upgradeSession = upgrade.body.result!.location.split('/').at(-1)!;
    fake.sessions.get(upgradeSession)!.paid = true;
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: upgradeSession } } });
    const [pending] = await ctx.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, buyer.sessionId));
    expect(pending!.subscriptionStatus).toBe('canceling');
    expect((await petOf(buyer.token, buyer.pet.id)).chips[0]).toMatchObject({ oneTime: true });

    fake.failCancellations = false;
    expect(await ctx.app.payments.stopReplacedSubscriptions()).toBe(1);
    expect(fake.canceled).toContain('sub_flaky');
    const [done] = await ctx.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, buyer.sessionId));
    expect(done!.subscriptionStatus).toBe('canceled');
  });

  /** A paid yearly checkout whose subscription a transfer or removal has marked to stop, not yet stopped. */
  async function subscriptionToStop(subscription: string) {
    const buyer = await checkout(yearly);
    Object.assign(fake.sessions.get(buyer.sessionId)!, { paid: true, subscription });
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: buyer.sessionId } } });
    await ctx.database.db.update(checkoutSessions).set({ subscriptionStatus: 'canceling' }).where(eq(checkoutSessions.id, buyer.sessionId));
    return buyer.sessionId;
  }
  const checkoutRow = async (id: string) => (await ctx.database.db.select().from(checkoutSessions).where(eq(checkoutSessions.id, id)))[0]!;

  it('asks Stripe once to stop a subscription when a transfer and the worker stop it at the same time', async () => {
    const sessionId = await subscriptionToStop('sub_raced');
    fake.cancelDelayMs = 200;
    const stopped = await Promise.all([ctx.app.payments.stopReplacedSubscriptions(), ctx.app.payments.stopReplacedSubscriptions()]).finally(() => {
      fake.cancelDelayMs = 0;
    });
    expect(stopped.sort()).toEqual([0, 1]);
    expect(fake.requests.filter((r) => r.method === 'DELETE' && r.path === '/v1/subscriptions/sub_raced')).toHaveLength(1);
    expect(await checkoutRow(sessionId)).toMatchObject({ subscriptionStatus: 'canceled', subscriptionClaimedUntil: null });
  });

  it('leaves a subscription another caller is stopping, and takes it again once that claim has run out', async () => {
    const sessionId = await subscriptionToStop('sub_orphaned');
    const claim = (minutes: number) =>
      ctx.database.db
        .update(checkoutSessions)
        .set({ subscriptionClaimedUntil: new Date(Date.now() + minutes * 60_000) })
        .where(eq(checkoutSessions.id, sessionId));
    await claim(5);
    expect(await ctx.app.payments.stopReplacedSubscriptions()).toBe(0);
    expect(fake.canceled).not.toContain('sub_orphaned');
    // The claiming process died between its claim and Stripe's answer: the claim runs out.
    await claim(-1);
    expect(await ctx.app.payments.stopReplacedSubscriptions()).toBe(1);
    expect(fake.canceled).toContain('sub_orphaned');
    expect(await checkoutRow(sessionId)).toMatchObject({ subscriptionStatus: 'canceled', subscriptionClaimedUntil: null });
  });

  it('opens the Stripe customer portal as the billing dashboard', async () => {
    const buyer = await checkout(yearly);
    const { body } = await call<string>(ctx.app, 'GET', `utilities/stripe-dashboard?uid=${buyer.user.id}`, { token: buyer.token });
    expect(body.result).toMatch(/^https:\/\/billing\.stripe\.test\/cus_\d+$/);
  });

  it('offers no portal checkout page when Stripe is configured', async () => {
    const buyer = await checkout(yearly);
    expect((await call(ctx.app, 'GET', `checkout/local/${buyer.sessionId}`, { token: buyer.token })).status).toBe(404);
  });
});

describe('Stripe payments that cannot be applied', () => {
  const pay = (sessionId: string, subscription: string | null = null) => {
    Object.assign(fake.sessions.get(sessionId)!, { paid: true, subscription });
    return sendWebhook({ type: 'checkout.session.completed', data: { object: { id: sessionId } } });
  };
  const upgradeOf = async (token: string, petId: number) =>
    (await call<{ location: string }>(ctx.app, 'POST', `checkout/upgrade-subscription/${petId}`, { token })).body.result!.location.split('/').at(-1)!;
  const refundsDue = async () => {
    await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
    const admin = await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } });
    const listed = await call<PaymentToRefund[]>(ctx.app, 'GET', 'admin/payments-to-refund', { token: admin.body.result!.token });
    expect(listed.status).toBe(200);
    return listed.body.result!;
  };

  it('records a paid checkout whose chip changed as due for a refund, and gives the new chip nothing', async () => {
    const buyer = await checkout(lifetime, uniqueChip('900164'));
    const pet = await petOf(buyer.token, buyer.pet.id);
    const newChip = uniqueChip('985');
    const body = { id: pet.id, name: pet.name, speciesId: pet.speciesId, chipTypeId: pet.chips[0]!.chipTypeId, chipId: newChip, confirmChip: newChip };
    expect((await call(ctx.app, 'PUT', `Pet/${pet.id}`, { token: buyer.token, body })).status).toBe(200);
    expect((await pay(buyer.sessionId)).status).toBe(200);

    expect(await petOf(buyer.token, buyer.pet.id)).toMatchObject({ isActive: false, isChipActive: false, microchip1: newChip });
    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, buyer.sessionId));
    expect(payment).toMatchObject({ status: 'refund_due', amountCents: 4995, refundReason: messages.checkoutClosed });
    expect(await ctx.database.db.select().from(mailOutbox).where(receiptsTo(buyer.input.email))).toHaveLength(0);
    expect((await call<User>(ctx.app, 'GET', 'Users/current-user', { token: buyer.token })).body.result!.role).toEqual(['customer']);
    const thankYou = await call(ctx.app, 'GET', `payment/complete/${buyer.sessionId}`, { token: buyer.token });
    expect(thankYou.status).toBe(409);
    expect(thankYou.body.errors).toEqual([messages.paymentRefundDue]);

    expect(await refundsDue()).toContainEqual(
      expect.objectContaining({ ownerEmail: buyer.input.email, petId: buyer.pet.id, petName: 'Biscuit', amountCents: 4995, providerPaymentId: 'pi_123' }),
    );
    expect((await call(ctx.app, 'GET', 'admin/payments-to-refund', { token: buyer.token })).status).toBe(403);
  });

  it('takes a payment off the list once the administrator has refunded it, once, with an audit record', async () => {
    const buyer = await checkout(lifetime);
    const second = (await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${buyer.pet.id}`, { token: buyer.token })).body.result!.location.split('/').at(-1)!;
    await pay(buyer.sessionId);
    await pay(second);
    const due = (await refundsDue()).find((r) => r.petId === buyer.pet.id)!;
    const admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
    const mark = (id: number, token: string) => call<{ id: number }>(ctx.app, 'POST', `admin/payments-to-refund/${id}/refunded`, { token });

    expect((await mark(due.id, buyer.token)).status).toBe(403);
    const marked = await mark(due.id, admin.token);
    expect(marked.status).toBe(200);
    expect(marked.body.result).toEqual({ id: due.id });
    expect((await refundsDue()).map((r) => r.id)).not.toContain(due.id);
    const again = await mark(due.id, admin.token);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.paymentNotDueForRefund]);
    expect((await mark(2147483647, admin.token)).status).toBe(404);
    const [paid] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, buyer.sessionId));
    expect((await mark(paid!.id, admin.token)).status).toBe(409);
    const audit = await ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'payment'), eq(auditLog.entityId, String(due.id))));
    expect(audit).toEqual([expect.objectContaining({ actorUserId: admin.user.id, action: 'refunded' })]);
    const billing = (await call<BillingOverview>(ctx.app, 'GET', 'payment/billing', { token: buyer.token })).body.result!;
    expect(billing.payments.find((p) => p.id === due.id)).toMatchObject({ status: 'refunded' });
  });

  it('never turns lifetime into yearly when an older yearly checkout is paid after the upgrade, and stops its subscription', async () => {
    const buyer = await checkout(yearly);
    const upgrade = await upgradeOf(buyer.token, buyer.pet.id);
    expect(fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form.get('cancel_url')).toBe(
      `http://localhost:3000/client/pet/update/${buyer.pet.id}`,
    );
    await pay(upgrade);
    await pay(buyer.sessionId, 'sub_stale');

    expect((await petOf(buyer.token, buyer.pet.id)).chips[0]).toMatchObject({ isActive: true, oneTime: true, expirationDate: null });
    const [stale] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, buyer.sessionId));
    expect(stale).toMatchObject({ status: 'refund_due' });
    expect(fake.canceled).toContain('sub_stale');
    expect(await ctx.database.db.select().from(mailOutbox).where(receiptsTo(buyer.input.email))).toHaveLength(1);
  });

  it('sells lifetime protection once when two of its checkouts are paid', async () => {
    const buyer = await checkout(lifetime);
    const second = (await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${buyer.pet.id}`, { token: buyer.token })).body.result!.location.split('/').at(-1)!;
    await pay(buyer.sessionId);
    await pay(second);
    const rows = await ctx.database.db.select().from(payments).where(eq(payments.petId, buyer.pet.id));
    expect(rows.map((r) => [r.providerSessionId, r.status, r.refundReason])).toEqual(
      expect.arrayContaining([
        [buyer.sessionId, 'paid', null],
        [second, 'refund_due', messages.alreadyLifetime],
      ]),
    );
    expect(await ctx.database.db.select().from(mailOutbox).where(receiptsTo(buyer.input.email))).toHaveLength(1);
    expect((await refundsDue()).map((r) => r.petId)).toContain(buyer.pet.id);
  });

  it('never extends cover for a renewal of a replaced subscription that Stripe has not stopped yet', async () => {
    const buyer = await checkout(yearly);
    await pay(buyer.sessionId, 'sub_replaced');
    const second = (await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${buyer.pet.id}`, { token: buyer.token })).body.result!;
    fake.failCancellations = true;
    try {
      await pay(second.location.split('/').at(-1)!, 'sub_current');
      const expiry = (await petOf(buyer.token, buyer.pet.id)).chips[0]!.expirationDate;
      const invoice = {
        id: 'in_replaced',
        object: 'invoice',
        billing_reason: 'subscription_cycle',
        amount_paid: 1995,
        currency: 'usd',
        parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_replaced' } },
      };
      expect((await sendWebhook({ type: 'invoice.paid', data: { object: invoice } })).status).toBe(200);
      const [renewal] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, 'in_replaced'));
      expect(renewal).toMatchObject({ status: 'refund_due', refundReason: messages.subscriptionNotActive });
      expect((await petOf(buyer.token, buyer.pet.id)).chips[0]!.expirationDate).toBe(expiry);
    } finally {
      fake.failCancellations = false;
    }
  });

  it('records a renewal of a yearly plan replaced by lifetime protection as due for a refund', async () => {
    const buyer = await checkout(yearly);
    await pay(buyer.sessionId, 'sub_outlived');
    await pay(await upgradeOf(buyer.token, buyer.pet.id));
    const invoice = {
      id: 'in_after_upgrade',
      object: 'invoice',
      billing_reason: 'subscription_cycle',
      amount_paid: 1995,
      currency: 'usd',
      parent: { type: 'subscription_details', subscription_details: { subscription: 'sub_outlived' } },
    };
    expect((await sendWebhook({ type: 'invoice.paid', data: { object: invoice } })).status).toBe(200);
    const [renewal] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, 'in_after_upgrade'));
    expect(renewal).toMatchObject({ status: 'refund_due', refundReason: messages.subscriptionNotActive });
    expect((await petOf(buyer.token, buyer.pet.id)).chips[0]).toMatchObject({ oneTime: true, expirationDate: null });
  });
});

describe('a lost pet alert paid through Stripe', () => {
  const kit = alertKit(() => ctx);

  it('opens a one-time payment at the alert price; the signed webhook sends the alert once', async () => {
    const { token, pet } = await kit.ownerWithLostPet();
    const site = await kit.siteNear('63101', 5);
    const sent = await kit.sendAlert(token, pet.id);
    expect(sent.status).toBe(200);
    const sessionId = sent.body.result!.location.split('/').at(-1)!;
    expect(sent.body.result!.location).toBe(`https://checkout.stripe.test/${sessionId}`);
    const created = fake.requests.filter((r) => r.path === '/v1/checkout/sessions').at(-1)!.form;
    expect(created.get('mode')).toBe('payment');
    expect(created.get('line_items[0][price_data][unit_amount]')).toBe('1499');
    expect(created.get('line_items[0][price_data][product_data][name]')).toBe('Lost Pet Alert for Biscuit');
    expect(created.get('line_items[0][price_data][recurring][interval]')).toBeNull();
    expect(created.get('success_url')).toBe(`http://localhost:3000/client/add-alert/${pet.id}/sent?session_id={CHECKOUT_SESSION_ID}`);
    expect(created.get('cancel_url')).toBe(`http://localhost:3000/client/add-alert/${pet.id}`);

    fake.sessions.get(sessionId)!.paid = true;
    const event = { type: 'checkout.session.completed', data: { object: { id: sessionId, object: 'checkout.session' } } };
    expect((await sendWebhook(event)).status).toBe(200);
    const alert = (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token })).body.result!;
    expect(alert).toMatchObject({ status: 'paid', recipientsCount: expect.any(Number) });
    const recipients = await kit.recipientsOf(alert.id);
    expect(recipients).toContain(site.email);
    expect((await sendWebhook(event)).status).toBe(200);
    expect(await kit.recipientsOf(alert.id)).toEqual(recipients);

    const rows = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
    expect(rows).toEqual([expect.objectContaining({ status: 'paid', amountCents: 1499, providerPaymentId: 'pi_123', petId: pet.id })]);
    // The sent page confirms the payment by its session id, as the Thank You page does.
    const completion = await call<PaymentCompletion>(ctx.app, 'GET', `payment/complete/${sessionId}`, { token });
    expect(completion.body.result).toMatchObject({ orderTotal: 1499, petId: pet.id });
    const billing = await call<BillingOverview>(ctx.app, 'GET', 'payment/billing', { token });
    expect(billing.body.result!.subscriptions).toEqual([]);
    expect(billing.body.result!.payments).toEqual([expect.objectContaining({ planName: 'Lost Pet Alert', amountCents: 1499 })]);
  });

  it('records an alert checkout paid after cover was bought as due for a refund, and sends the alert free', async () => {
    const owner = await signUpOwner(ctx.app);
    const chipped = await registerPet(ctx.app, owner.token, uniqueChip());
    const pet = (await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: owner.token, body: await kit.profileOf(chipped) })).body.result!;
    const site = await kit.siteNear('63101', 6);
    const alertSession = (await kit.sendAlert(owner.token, pet.id)).body.result!.location.split('/').at(-1)!;

    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: lifetime } });
    const plan = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}`, { token: owner.token });
    const planSession = plan.body.result!.location.split('/').at(-1)!;
    fake.sessions.get(planSession)!.paid = true;
    await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: planSession } } });

    // Stripe completes the alert's session anyway.
    fake.sessions.get(alertSession)!.paid = true;
    expect((await sendWebhook({ type: 'checkout.session.completed', data: { object: { id: alertSession } } })).status).toBe(200);
    const [late] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, alertSession));
    expect(late).toMatchObject({ status: 'refund_due', amountCents: 1499, refundReason: messages.checkoutClosed });
    const alert = (await call<PetAlert>(ctx.app, 'GET', `petalert/alerts/bypet/${pet.id}`, { token: owner.token })).body.result!;
    expect(alert.status).toBe('paid');
    expect(await kit.recipientsOf(alert.id)).toContain(site.email);
    const confirmation = (await ctx.database.db.select().from(mailOutbox).where(eq(mailOutbox.recipient, owner.input.email))).find((m) =>
      m.subject.startsWith('Your lost pet alert'),
    );
    expect(confirmation!.text).toContain("It was sent at no charge: Biscuit's protection plan includes alerts.");
  });
});
