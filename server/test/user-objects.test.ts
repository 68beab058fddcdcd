import { randomUUID } from 'node:crypto';
import type { User } from '@petreg/contract';
import { eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Subscription } from '../src/db/client.js';
import { payments, pets, states, users } from '../src/db/schema.js';
import { createAccounts, keepUserObjects, userObjectChannel } from '../src/modules/users/accounts.js';
import { activatePet, call, createTestApp, registerPet, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

const rename = (userId: number, firstName: string) => ctx.database.db.update(users).set({ firstName }).where(eq(users.id, userId));
const paidPayment = (userId: number) =>
  ctx.database.db.insert(payments).values({ userId, provider: 'local', providerSessionId: `cs_${randomUUID()}`, amountCents: 1995, currency: 'usd', status: 'paid' });

/**
 * The user objects an instance keeps, with a listening connection the test plays: notifications it
 * delivers by hand, and whether it is live. Writes are made straight to the database, as another
 * instance's would be, so only a notification tells this one.
 */
describe('the user objects an instance keeps', () => {
  let live: boolean;
  let notify: (payload: string | null) => void;
  const channels: string[] = [];

  async function accountsListening(isLive: boolean) {
    live = isLive;
    const listening: Subscription = { live: () => live, unanswered: () => false, caughtUp: () => undefined, close: async () => {} };
    const userObjects = await keepUserObjects(
      {
        async listen(channel, onNotify) {
          channels.push(channel);
          notify = onNotify;
          return listening;
        },
      },
      console,
    );
    return createAccounts({ db: ctx.database.db, sessions: ctx.app.sessions, userObjects });
  }

  it("are kept until the database names the account, and all of them on '' or a lost connection", async () => {
    const accounts = await accountsListening(true);
    expect(channels.at(-1)).toBe(userObjectChannel);
    const first = (await signUpOwner(ctx.app)).user;
    const second = (await signUpOwner(ctx.app)).user;
    await accounts.loadUser(first.id);
    await accounts.loadUser(second.id);
    await rename(first.id, 'Renamed');
    await rename(second.id, 'Renamed');
    // Kept until told: the writes were another instance's.
    expect((await accounts.loadUser(first.id)).data.firstName).toBe(first.data.firstName);
    notify(String(first.id));
    expect((await accounts.loadUser(first.id)).data.firstName).toBe('Renamed');
    expect((await accounts.loadUser(second.id)).data.firstName).toBe(second.data.firstName);

    for (const everything of ['', null]) {
      await rename(first.id, `Everyone ${everything}`);
      expect((await accounts.loadUser(first.id)).data.firstName).toBe('Renamed');
      notify(everything);
      expect((await accounts.loadUser(first.id)).data.firstName).toBe(`Everyone ${everything}`);
      await rename(first.id, 'Renamed');
      notify(String(first.id));
      await accounts.loadUser(first.id);
    }
  });

  it('are dropped at once by the instance that changed one', async () => {
    const accounts = await accountsListening(true);
    const { user } = await signUpOwner(ctx.app);
    await accounts.loadUser(user.id);
    await rename(user.id, 'Changed');
    accounts.forget(user.id);
    expect((await accounts.loadUser(user.id)).data.firstName).toBe('Changed');
  });

  it('are not kept while the listening connection is down: every page load reads the database', async () => {
    const accounts = await accountsListening(false);
    const { user } = await signUpOwner(ctx.app);
    await accounts.loadUser(user.id);
    await rename(user.id, 'Unheard');
    expect((await accounts.loadUser(user.id)).data.firstName).toBe('Unheard');
  });
});

/** The triggers of 0035 on the database itself: every write a user object shows names its account, and no other write does. */
describe('writes that change a user object', () => {
  let heard: (string | null)[] = [];
  let subscription: Subscription;
  beforeAll(async () => {
    subscription = await ctx.database.listen(userObjectChannel, (payload) => heard.push(payload));
  });
  afterAll(() => subscription.close());

  /** What the channel heard of `write`: a server's notifications come a moment after the commit. */
  async function heardOf(write: () => Promise<unknown>): Promise<(string | null)[]> {
    heard = [];
    await write();
    const marker = `marker-${Math.random()}`;
    await ctx.database.db.execute(sql`select pg_notify(${userObjectChannel}, ${marker})`);
    const until = Date.now() + 5000;
    while (!heard.includes(marker) && Date.now() < until) await new Promise((done) => setTimeout(done, 10));
    return heard.filter((payload) => payload !== marker);
  }

  it('name the account whose row changed, and nobody for an update that changes nothing', async () => {
    const { user } = await signUpOwner(ctx.app);
    expect(await heardOf(() => rename(user.id, 'Heard'))).toEqual([String(user.id)]);
    expect(await heardOf(() => rename(user.id, 'Heard'))).toEqual([]);
  });

  it("name the owner of a pet registered, switched on, removed or erased, and both owners of a pet moved", async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    const id = String(owner.user.id);
    let pet: { id: number } | undefined;
    expect(await heardOf(async () => (pet = await registerPet(ctx.app, owner.token)))).toEqual([id]);
    expect(await heardOf(() => ctx.database.db.update(pets).set({ isActive: true }).where(eq(pets.id, pet!.id)))).toEqual([id]);
    expect(await heardOf(() => ctx.database.db.update(pets).set({ name: 'Renamed pet' }).where(eq(pets.id, pet!.id)))).toEqual([]);
    expect(await heardOf(() => ctx.database.db.update(pets).set({ userId: other.user.id }).where(eq(pets.id, pet!.id)))).toEqual([id, String(other.user.id)]);
    expect(await heardOf(() => ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet!.id)))).toEqual([String(other.user.id)]);
    // A pet row with nothing hanging from it, written and erased straight in the database.
    let bare: { id: number } | undefined;
    expect(await heardOf(async () => ([bare] = await ctx.database.db.insert(pets).values({ userId: owner.user.id, name: 'Erased' }).returning()))).toEqual([id]);
    expect(await heardOf(() => ctx.database.db.delete(pets).where(eq(pets.id, bare!.id)))).toEqual([id]);
  });

  it('name the payer of a payment made, refunded or removed, and everyone for a state edited', async () => {
    const { user } = await signUpOwner(ctx.app);
    expect(await heardOf(() => paidPayment(user.id))).toEqual([String(user.id)]);
    expect(await heardOf(() => ctx.database.db.update(payments).set({ status: 'refund_due' }).where(eq(payments.userId, user.id)))).toEqual([String(user.id)]);
    expect(await heardOf(() => ctx.database.db.delete(payments).where(eq(payments.userId, user.id)))).toEqual([String(user.id)]);
    const [state] = await ctx.database.db.select().from(states).where(eq(states.id, 1));
    expect(await heardOf(() => ctx.database.db.update(states).set({ name: state!.name }).where(eq(states.id, 1)))).toEqual(['']);
  });
});

/** What an owner's pages show after another instance's write, with this instance's own listener. */
describe('Users/current-user after a write straight to the database', () => {
  const current = async (token: string) => (await call<User>(ctx.app, 'GET', 'Users/current-user', { token })).body.result!.data;

  it('shows an active pet, a paid plan, a removed pet and a new name, each on the next page load', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token);
    expect(await current(owner.token)).toMatchObject({ firstName: owner.input.firstName, haveActivePets: false, haveSubscriptions: false });
    // Each write alone, none of them to the account's row: only its own table's trigger tells.
    await activatePet(ctx.database, pet.id);
    expect(await current(owner.token)).toMatchObject({ haveActivePets: true, haveSubscriptions: false });
    await paidPayment(owner.user.id);
    expect(await current(owner.token)).toMatchObject({ haveActivePets: true, haveSubscriptions: true });
    await ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet.id));
    expect(await current(owner.token)).toMatchObject({ haveActivePets: false, haveSubscriptions: true });
    await rename(owner.user.id, 'Straight');
    expect(await current(owner.token)).toMatchObject({ firstName: 'Straight', displayName: `Straight ${owner.input.lastName}` });
  });

  it("answers the bytes Fastify would serialise for the kept object, each owner their own", async () => {
    const owners = [await signUpOwner(ctx.app), await signUpOwner(ctx.app)];
    for (const owner of owners) {
      for (let call = 0; call < 2; call++) {
        const answer = await ctx.app.inject({ method: 'GET', url: '/api/v2/Users/current-user', headers: { authorization: `Bearer ${owner.token}` } });
        expect(answer.headers['content-type']).toBe('application/json; charset=utf-8');
        expect(answer.body).toBe(JSON.stringify({ succeeded: true, result: owner.user, errors: [] }));
      }
    }
  });
});
