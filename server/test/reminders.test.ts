import { formatRegisteredUntil, type AuthResult, type MailLogPage, type MicrochipSubscription, type User } from '@petreg/contract';
import { and, eq, inArray } from 'drizzle-orm';
import type { AddressObject } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { chips, mailOutbox, pets, users } from '../src/db/schema.js';
import { sendReminders } from '../src/modules/reminders/service.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueMail } from '../src/worker/outbox.js';
import { call, createTestApp, readOutbox, registerPet, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let yearly: number;
let lifetime: number;
const db = () => ctx.database.db;
const settings = { publicUrl: 'http://localhost:3000' };
const DAY = 86_400_000;
const HOUR = 3_600_000;
const reminderKinds = ['renewal-reminder', 'cover-lapsed', 'chip-scan-reminder'] as const;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: settings.publicUrl } });
  const { body } = await call<{ plans: { id: number; oneTime: boolean }[] }>(ctx.app, 'GET', 'pet/plans');
  yearly = body.result!.plans.find((p) => !p.oneTime)!.id;
  lifetime = body.result!.plans.find((p) => p.oneTime)!.id;
});
afterAll(() => ctx.close());

/** An owner whose chipped pet is paid for on the portal's own checkout, with the chip's end of cover. */
async function ownerWithPaidPlan(planId: number) {
  const owner = await signUpOwner(ctx.app);
  const pet = await registerPet(ctx.app, owner.token);
  await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId } });
  const started = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=false&isTagSelected=false`, { token: owner.token });
  const sessionId = started.body.result!.location.split('/checkout/')[1]!;
  const paid = await call(ctx.app, 'POST', `checkout/local/${sessionId}/pay`, {
    token: owner.token,
    body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
  });
  expect(paid.status).toBe(200);
  const [chip] = await db().select().from(chips).where(eq(chips.petId, pet.id));
  const [row] = await db().select({ createdAt: pets.createdAt }).from(pets).where(eq(pets.id, pet.id));
  return { ...owner, pet, endsAt: chip!.expirationDate, registeredAt: row!.createdAt };
}

/** The reminders queued for the address so far (the mail log's rows), oldest first. */
const remindersTo = (email: string) =>
  db()
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), inArray(mailOutbox.kind, [...reminderKinds])))
    .orderBy(mailOutbox.id);

/** The reminders the worker sent to the address, read back from the embedded mail server's files. */
async function mailsTo(email: string) {
  const mailer = createMailer({ from: 'Pet Registry <no-reply@localhost>', outboxDir: ctx.outboxDir });
  while ((await sendDueMail(db(), mailer)) > 0);
  // The owner's other e-mails (the sign-up's confirmation, the receipt) are left out.
  const reminders = new Set((await remindersTo(email)).map((m) => m.subject));
  const mails = await readOutbox(ctx.outboxDir);
  return mails.filter((m) => (m.to as AddressObject).value[0]!.address === email && reminders.has(m.subject!));
}

const setProfile = (owner: AuthResult & { input: { firstName: string; lastName: string; email: string; phoneNumber: string } }, switches: Record<string, boolean>) =>
  call<User>(ctx.app, 'PUT', `Users/${owner.user.id}`, {
    token: owner.token,
    body: { firstName: owner.input.firstName, lastName: owner.input.lastName, email: owner.input.email, phoneNumber: owner.input.phoneNumber, ...switches },
  });

const at = (base: Date, ms: number) => new Date(base.getTime() + ms);

describe('renewal reminders', () => {
  it('e-mails 30 and then 7 days before a yearly plan ends, each once, with the renewal state at the time', async () => {
    const owner = await ownerWithPaidPlan(yearly);
    const ends = owner.endsAt!;
    const date = formatRegisteredUntil(ends);

    expect((await sendReminders(db(), settings, at(ends, -31 * DAY))).renewals).toBe(0);
    await sendReminders(db(), settings, at(ends, -30 * DAY + HOUR));
    let [first, ...others] = await mailsTo(owner.input.email);
    expect(others).toEqual([]);
    expect(first!.subject).toBe(`Biscuit's plan renews automatically on ${date}`);
    expect(first!.text).toContain(`Biscuit's yearly plan renews automatically on ${date}, so Biscuit's microchip stays registered`);
    expect(first!.text).toContain('Your plans and payments: http://localhost:3000/billing');
    expect(first!.text).toContain('To switch it off: http://localhost:3000/client/profile');
    expect(first!.html).toContain('<a href="http://localhost:3000/billing">Billing</a>');

    // The next runs that day and the next days find it sent.
    await sendReminders(db(), settings, at(ends, -30 * DAY + 2 * HOUR));
    await sendReminders(db(), settings, at(ends, -20 * DAY));
    expect(await remindersTo(owner.input.email)).toHaveLength(1);

    // The owner stops the renewal: the 7-day reminder says the plan ends.
    const [subscription] = (await call<MicrochipSubscription[]>(ctx.app, 'GET', 'pet/microchip-subscriptions', { token: owner.token })).body.result!;
    expect((await call(ctx.app, 'POST', `payment/subscriptions/${subscription!.id}/cancel`, { token: owner.token })).status).toBe(200);
    await sendReminders(db(), settings, at(ends, -7 * DAY + HOUR));
    await sendReminders(db(), settings, at(ends, -6 * DAY));
    [, first, ...others] = await mailsTo(owner.input.email);
    expect(others).toEqual([]);
    expect(first!.subject).toBe(`Biscuit's plan ends on ${date}`);
    expect(first!.text).toContain(`Biscuit's yearly plan ends on ${date}: its automatic renewal is stopped.`);
    expect(first!.text).toContain(`To keep Biscuit protected, choose a plan: http://localhost:3000/client/pet/checkout/${owner.pet.id}`);
    expect((await remindersTo(owner.input.email)).map((m) => m.kind)).toEqual(['renewal-reminder', 'renewal-reminder']);
  });

  it('sends a plan the 30-day reminder missed only the 7-day one', async () => {
    const owner = await ownerWithPaidPlan(yearly);
    await sendReminders(db(), settings, at(owner.endsAt!, -5 * DAY));
    await sendReminders(db(), settings, at(owner.endsAt!, -4 * DAY));
    const mails = await remindersTo(owner.input.email);
    expect(mails.map((m) => m.subject)).toEqual([`Biscuit's plan renews automatically on ${formatRegisteredUntil(owner.endsAt!)}`]);
  });

  it('is sent once when two workers run at the same moment', async () => {
    const owner = await ownerWithPaidPlan(yearly);
    const moment = at(owner.endsAt!, -30 * DAY + HOUR);
    await Promise.all([sendReminders(db(), settings, moment), sendReminders(db(), settings, moment)]);
    expect(await remindersTo(owner.input.email)).toHaveLength(1);
  });

  it('is not sent when the owner switched it off, and the choice is kept until changed', async () => {
    const owner = await ownerWithPaidPlan(yearly);
    const off = await setProfile(owner, { renewalReminders: false });
    expect(off.body.result!.data).toMatchObject({ renewalReminders: false, chipScanReminders: true });
    // A save without the switch keeps it.
    expect((await setProfile(owner, {})).body.result!.data.renewalReminders).toBe(false);
    expect((await call<User>(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).body.result!.data.renewalReminders).toBe(false);

    await sendReminders(db(), settings, at(owner.endsAt!, -30 * DAY + HOUR));
    await sendReminders(db(), settings, at(owner.endsAt!, -7 * DAY + HOUR));
    expect(await remindersTo(owner.input.email)).toEqual([]);
  });

  it('never reaches a lifetime plan, a switched-off or removed pet, or a deactivated account', async () => {
    const forever = await ownerWithPaidPlan(lifetime);
    const switchedOff = await ownerWithPaidPlan(yearly);
    await db().update(pets).set({ isActive: false }).where(eq(pets.id, switchedOff.pet.id));
    const removed = await ownerWithPaidPlan(yearly);
    await db().update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, removed.pet.id));
    const closed = await ownerWithPaidPlan(yearly);
    await db().update(users).set({ isActive: false }).where(eq(users.id, closed.user.id));

    const ends = switchedOff.endsAt!;
    for (const moment of [at(ends, -30 * DAY + HOUR), at(ends, -7 * DAY + HOUR), at(ends, -DAY)]) await sendReminders(db(), settings, moment);
    for (const owner of [forever, switchedOff, removed, closed]) expect(await remindersTo(owner.input.email)).toEqual([]);
  });

  it('is another owner’s to switch off only by that owner', async () => {
    const owner = await signUpOwner(ctx.app);
    const stranger = await signUpOwner(ctx.app);
    const body = { firstName: 'Mallory', lastName: 'Rivera', email: owner.input.email, renewalReminders: false };
    expect((await call(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: stranger.token, body })).status).toBe(403);
    expect((await call(ctx.app, 'PUT', `Users/${owner.user.id}`, { token: owner.token, body: { ...body, renewalReminders: 'no' } })).status).toBe(400);
    const [row] = await db().select().from(users).where(eq(users.id, owner.user.id));
    expect(row).toMatchObject({ renewalReminders: true, chipScanReminders: true, firstName: 'Jamie' });
  });
});

describe('the notice that cover lapsed', () => {
  it('goes with the sweep that ends the plan, once, even when the owner switched the reminders off', async () => {
    const owner = await ownerWithPaidPlan(yearly);
    await setProfile(owner, { renewalReminders: false, chipScanReminders: false });
    // Ends sooner than the other tests' plans, so this sweep lapses this one.
    const ends = new Date(Date.now() + 2 * DAY);
    await db().update(chips).set({ expirationDate: ends }).where(eq(chips.petId, owner.pet.id));
    const switchedOff = await ownerWithPaidPlan(yearly);
    await db().update(chips).set({ expirationDate: ends }).where(eq(chips.petId, switchedOff.pet.id));
    await db().update(pets).set({ isActive: false }).where(eq(pets.id, switchedOff.pet.id));

    expect(await ctx.app.payments.expireLapsedRegistrations(at(ends, -HOUR))).toBe(0);
    expect(await ctx.app.payments.expireLapsedRegistrations(at(ends, HOUR))).toBe(2);
    expect(await ctx.app.payments.expireLapsedRegistrations(at(ends, 2 * HOUR))).toBe(0);

    const [notice, ...others] = await mailsTo(owner.input.email);
    expect(others).toEqual([]);
    expect(notice!.subject).toBe("Biscuit's cover has lapsed");
    expect(notice!.text).toContain(`Biscuit's yearly plan ended on ${formatRegisteredUntil(ends)} and was not renewed`);
    expect(notice!.text).toContain(`To protect Biscuit again, choose a plan: http://localhost:3000/client/pet/checkout/${owner.pet.id}`);
    expect(notice!.text).toContain('To choose the reminders you get: http://localhost:3000/client/profile');
    expect(await remindersTo(switchedOff.input.email)).toEqual([]);
    expect((await call<{ isActive: boolean }>(ctx.app, 'GET', `Pet/${owner.pet.id}`, { token: owner.token })).body.result!.isActive).toBe(false);
  });
});

describe('the yearly chip scan reminder', () => {
  it('is sent on each registration anniversary, once a year, and not when switched off', async () => {
    const owner = await ownerWithPaidPlan(lifetime);
    const quiet = await ownerWithPaidPlan(lifetime);
    await setProfile(quiet, { chipScanReminders: false });
    const year = (n: number) => {
      const day = new Date(owner.registeredAt);
      day.setUTCFullYear(day.getUTCFullYear() + n);
      return day;
    };

    await sendReminders(db(), settings, at(year(1), -DAY));
    expect(await remindersTo(owner.input.email)).toEqual([]);
    await sendReminders(db(), settings, at(year(1), HOUR));
    await sendReminders(db(), settings, at(year(1), 2 * DAY));
    await sendReminders(db(), settings, at(year(1), 30 * DAY));
    const [scan, ...others] = await mailsTo(owner.input.email);
    expect(others).toEqual([]);
    expect(scan!.subject).toBe("Ask your vet to scan Biscuit's microchip");
    const [chip] = await db().select().from(chips).where(eq(chips.petId, owner.pet.id));
    expect(scan!.text).toContain(`Biscuit was registered with us 1 year ago. At Biscuit's next visit, ask your vet to scan the microchip`);
    expect(scan!.text).toContain(`still reads ${chip!.chipId}.`);
    expect(scan!.text).toContain(`http://localhost:3000/client/pet/update/${owner.pet.id}`);
    expect(scan!.text).toContain('To switch it off: http://localhost:3000/client/profile');

    await sendReminders(db(), settings, at(year(2), HOUR));
    await sendReminders(db(), settings, at(year(2), 3 * HOUR));
    expect((await remindersTo(owner.input.email)).map((m) => m.kind)).toEqual(['chip-scan-reminder', 'chip-scan-reminder']);
    expect((await mailsTo(owner.input.email))[1]!.text).toContain('registered with us 2 years ago');
    expect(await remindersTo(quiet.input.email)).toEqual([]);
  });
});

describe('the mail log', () => {
  it('lists the reminders for the administrator', async () => {
    const owner = await ownerWithPaidPlan(yearly);
    await sendReminders(db(), settings, at(owner.endsAt!, -30 * DAY + HOUR));
    await ensureAdministrator(db(), { email: 'root@example.com', password: 'Admin#Pass1' });
    const admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
    const log = await call<MailLogPage>(ctx.app, 'GET', `admin/mail?query=${encodeURIComponent(owner.input.email)}`, { token: admin.token });
    expect(log.body.result!.items).toContainEqual(
      expect.objectContaining({ kind: 'renewal-reminder', recipient: owner.input.email, subject: expect.stringContaining('renews automatically on') }),
    );
  });
});
