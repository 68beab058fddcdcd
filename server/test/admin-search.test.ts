import { randomInt } from 'node:crypto';
import {
  adminUserSearchPageSize,
  matchCountLimit,
  messages,
  type AdminChipMatch,
  type AdminUserSearchPage,
  type AuthResult,
  type CardTransactionRow,
} from '@petreg/contract';
import { eq, sql, type SQL } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, type Database, type Transaction } from '../src/db/client.js';
import { chips, payments, pets, users } from '../src/db/schema.js';
import { readUserSearch } from '../src/modules/admin/search.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
let customer: string;
beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
  customer = (await signUpOwner(ctx.app)).token;
});
afterAll(() => ctx.close());

/** A made-up word no other test's names carry, so a search sees only this test's records. */
const word = () =>
  `Zq${Array.from({ length: 8 }, () => String.fromCharCode(97 + randomInt(26))).join('')}`;
/** A phone number no other test's owner has: 10 digits, area code 314. */
const uniquePhone = () => `314${randomInt(2_000_000, 9_999_999)}`;

const searchUsers = (searchTerm: unknown, pageNumber: unknown = 1, token: string | undefined = admin.token) =>
  call<AdminUserSearchPage>(ctx.app, 'POST', 'Users/SearchUsersByAdmin', { token, body: { searchTerm, pageNumber } });
const byChip = (chip: string, token: string | undefined = admin.token) =>
  call<AdminChipMatch>(ctx.app, 'GET', `admin/pet-by-microchip?chip=${encodeURIComponent(chip)}`, { token });
const byCard = (key: string, token: string | undefined = admin.token) =>
  call<CardTransactionRow[]>(ctx.app, 'GET', `admin/stripe-transactions/?key=${encodeURIComponent(key)}`, { token });

/** An owner with one chipped pet, their names and phone set as the test needs them (phones stored as given). */
async function ownerWithPet(values: { firstName?: string; lastName?: string; phoneNumber?: string | null; petName?: string } = {}) {
  const owner = await signUpOwner(ctx.app);
  const chipId = uniqueChip();
  const pet = await registerPet(ctx.app, owner.token, chipId);
  const { petName, ...userValues } = values;
  if (Object.keys(userValues).length) await ctx.database.db.update(users).set(userValues).where(eq(users.id, owner.user.id));
  if (petName) await ctx.database.db.update(pets).set({ name: petName }).where(eq(pets.id, pet.id));
  return { ...owner, pet, chipId };
}

describe('who may search', () => {
  const calls: [InjectOptions['method'], string, unknown][] = [
    ['GET', 'admin/pet-by-microchip?chip=985141000123456', undefined],
    ['POST', 'Users/SearchUsersByAdmin', { searchTerm: 'Rivera', pageNumber: 1 }],
    ['GET', 'admin/stripe-transactions/?key=4242', undefined],
  ];

  it.each(calls)('%s %s: a guest gets 401, an owner 403', async (method, path, body) => {
    const guest = await call(ctx.app, method, path, { body });
    expect(guest.status).toBe(401);
    expect(guest.body.errors).toEqual([messages.invalidAccessToken]);
    const owner = await call(ctx.app, method, path, { body, token: customer });
    expect(owner.status).toBe(403);
    expect(owner.body.errors).toEqual([messages.forbidden]);
  });
});

describe('GET admin/pet-by-microchip', () => {
  it('finds the pet however the chip number is printed', async () => {
    const { pet, chipId } = await ownerWithPet();
    const found = await byChip(chipId);
    expect(found.status).toBe(200);
    expect(found.body.result).toEqual({ id: expect.any(Number), petId: pet.id, chipId, removed: false });
    const spaced = `${chipId.slice(0, 3)} ${chipId.slice(3, 9)}-${chipId.slice(9)}`;
    expect((await byChip(spaced)).body.result!.petId).toBe(pet.id);
  });

  it('answers No Records found for a chip nobody registered', async () => {
    const missing = await byChip(uniqueChip('981'));
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ succeeded: false, result: null, errors: [messages.chipSearchNoRecords] });
  });

  it('asks for a chip number when the box is empty', async () => {
    for (const chip of ['', '  - * ']) {
      const empty = await byChip(chip);
      expect(empty.status).toBe(400);
      expect(empty.body.errors).toEqual([messages.chipSearchRequired]);
    }
  });

  it('says how long a chip number is when the box holds far too much', async () => {
    const long = await byChip('9'.repeat(41));
    expect([long.status, long.body.errors]).toEqual([400, [messages.lookupLength]]);
  });

  it('still finds a removed pet, marked removed, and prefers the pet carrying the chip now', async () => {
    const first = await ownerWithPet();
    await ctx.database.db.update(pets).set({ deletedAt: new Date(), deletedBy: admin.user.id }).where(eq(pets.id, first.pet.id));
    expect((await byChip(first.chipId)).body.result).toMatchObject({ petId: first.pet.id, removed: true });

    // The removed pet's chip is freed and registered again to another pet: that pet is the one found.
    await ctx.database.db.update(chips).set({ removedAt: new Date() }).where(eq(chips.petId, first.pet.id));
    const second = await signUpOwner(ctx.app);
    const again = await registerPet(ctx.app, second.token, first.chipId);
    expect((await byChip(first.chipId)).body.result).toMatchObject({ petId: again.id, removed: false });
  });
});

describe('POST Users/SearchUsersByAdmin', () => {
  it('answers the rows of spec 3 for part of an owner’s first, last or full name, in any case', async () => {
    const lastName = word();
    const { pet, chipId, input, user } = await ownerWithPet({ firstName: 'Harriet', lastName, phoneNumber: '+13145550123' });
    const expected = {
      petId: pet.id,
      userId: user.id,
      ownerName: `Harriet ${lastName}`,
      email: input.email,
      address: '',
      phoneNumber: '+13145550123',
      petName: 'Biscuit',
      chipId,
      petRemoved: false,
    };
    for (const term of [lastName, lastName.slice(2, 7).toUpperCase(), `harriet ${lastName.toLowerCase()}`, `  ${lastName}  `]) {
      const { status, body } = await searchUsers(term);
      expect(status, term).toBe(200);
      expect(body.result, term).toEqual({ rows: [expected], total: 1, totalCapped: false, pageNumber: 1, pageSize: adminUserSearchPageSize });
    }
  });

  it('shows the address as street, city, state and ZIP', async () => {
    const lastName = word();
    const { user } = await ownerWithPet({ lastName });
    const [missouri] = await ctx.database.db.execute(sql`select id from states where abbreviation = 'MO'`).then((r) => (r as unknown as { rows: { id: number }[] }).rows);
    await ctx.database.db.update(users).set({ address1: '12 Elm St', city: 'Saint Louis', stateId: missouri!.id, zipcode: '63101' }).where(eq(users.id, user.id));
    expect((await searchUsers(lastName)).body.result!.rows[0]!.address).toBe('12 Elm St, Saint Louis, MO 63101');
  });

  it('finds an owner by part of a pet’s name: that pet’s row', async () => {
    const petName = word();
    const owner = await ownerWithPet({ petName });
    // A second pet of the same owner, named otherwise, is not what was searched for.
    await registerPet(ctx.app, owner.token);
    const { body } = await searchUsers(petName.slice(1, 7).toLowerCase());
    expect(body.result!.rows).toEqual([expect.objectContaining({ petId: owner.pet.id, petName, userId: owner.user.id })]);
  });

  it('lists every pet of an owner found by name, and an owner without pets as one row with no pet', async () => {
    const lastName = word();
    const owner = await ownerWithPet({ lastName });
    const second = await registerPet(ctx.app, owner.token);
    await ctx.database.db.update(pets).set({ name: 'Apple' }).where(eq(pets.id, second.id));
    const petless = await signUpOwner(ctx.app);
    await ctx.database.db.update(users).set({ firstName: 'Aaron', lastName }).where(eq(users.id, petless.user.id));

    const { body } = await searchUsers(lastName);
    expect(body.result!.rows.map((row) => [row.ownerName, row.petName, row.petId])).toEqual([
      // The newest account first; an owner's pets in the order they were added.
      [`Aaron ${lastName}`, null, null],
      [`Jamie ${lastName}`, 'Biscuit', owner.pet.id],
      [`Jamie ${lastName}`, 'Apple', second.id],
    ]);
    expect(body.result!.rows[0]).toMatchObject({ chipId: null, petRemoved: false, userId: petless.user.id });
  });

  it('finds an owner by e-mail in any case, whole or in part', async () => {
    const { user, input } = await ownerWithPet();
    for (const term of [input.email, input.email.toUpperCase(), input.email.split('@')[0]!.slice(3), `${input.email.split('@')[0]!.toUpperCase()}@`]) {
      const rows = (await searchUsers(term)).body.result!.rows;
      expect(rows.map((row) => row.userId), term).toEqual([user.id]);
    }
  });

  it('finds an owner by phone however the number was typed, and however it was stored', async () => {
    const digits = uniquePhone();
    const [area, exchange, line] = [digits.slice(0, 3), digits.slice(3, 6), digits.slice(6)];
    const typed = [`(${area}) ${exchange}-${line}`, `${area}.${exchange}.${line}`, `+1 ${area} ${exchange} ${line}`, digits, `1-${area}-${exchange}-${line}`];
    for (const stored of [`+1${digits}`, `${area}.${exchange}.${line}`, `(${area}) ${exchange} - ${line}`]) {
      const { user } = await ownerWithPet({ phoneNumber: stored });
      for (const term of typed) {
        const rows = (await searchUsers(term)).body.result!.rows;
        expect(rows.map((row) => row.userId), `${term} finds ${stored}`).toEqual([user.id]);
      }
      // From the area code on, part of the number is enough.
      for (const part of [`(${area}) ${exchange}-${line.slice(0, 2)}`, `+1 ${area} ${exchange}`]) {
        expect((await searchUsers(part)).body.result!.rows.map((row) => row.userId), part).toContain(user.id);
      }
      // A chip number pasted into the box is not a phone number ending in these digits.
      expect((await searchUsers(`98514${digits}`)).body.result!.rows.map((row) => row.userId)).not.toContain(user.id);
      await ctx.database.db.update(users).set({ phoneNumber: null }).where(eq(users.id, user.id));
    }
  });

  it('takes % and _ literally', async () => {
    const lastName = word();
    await ownerWithPet({ lastName });
    expect((await searchUsers(`${lastName.slice(0, 4)}%`)).body.result!.rows).toEqual([]);
    expect((await searchUsers(`${lastName.slice(0, 4)}_${lastName.slice(5)}`)).body.result!.rows).toEqual([]);
  });

  it('shows a removed pet, marked removed', async () => {
    const petName = word();
    const { pet } = await ownerWithPet({ petName });
    await ctx.database.db.update(pets).set({ deletedAt: new Date() }).where(eq(pets.id, pet.id));
    expect((await searchUsers(petName)).body.result!.rows).toEqual([expect.objectContaining({ petId: pet.id, petRemoved: true })]);
  });

  it('pages the rows, 20 a page, in a stable order', async () => {
    expect(adminUserSearchPageSize).toBe(20);
    const lastName = word();
    const { user, pet } = await ownerWithPet({ lastName });
    const names = Array.from({ length: adminUserSearchPageSize + 4 }, (_, i) => `Pet ${String(i).padStart(3, '0')}`);
    await ctx.database.db.insert(pets).values(names.map((name) => ({ userId: user.id, name })));
    const first = (await searchUsers(lastName, 1)).body.result!;
    const second = (await searchUsers(lastName, 2)).body.result!;
    expect(first.total).toBe(names.length + 1);
    expect(first.rows).toHaveLength(adminUserSearchPageSize);
    expect(second.rows.map((row) => row.petName)).toEqual([...names.slice(adminUserSearchPageSize - 1)]);
    expect(first.rows[0]!.petName).toBe('Biscuit');
    expect(second.rows.map((row) => row.petId)).not.toContain(pet.id);
    expect((await searchUsers(lastName, 3)).body.result).toEqual({
      rows: [],
      total: names.length + 1,
      totalCapped: false,
      pageNumber: 3,
      pageSize: adminUserSearchPageSize,
    });
  });

  it('pages owners found by name and pets found by theirs together, newest accounts first, each row once', async () => {
    const term = word();
    const { db } = ctx.database;
    // Owners named like the term (a few with no pet, some with a pet named like it too), and other
    // owners' pets named like it, interleaved so that both kinds fall on each page.
    const expected: { userId: number; petId: number | null }[] = [];
    for (let i = 0; i < 70; i++) {
      const byOwner = i % 3 !== 2;
      const [user] = await db
        .insert(users)
        .values({ email: `${word()}@example.com`, firstName: 'Sam', lastName: byOwner ? `${term}${i}` : 'Other' })
        .returning();
      const petValues = byOwner
        ? Array.from({ length: i % 7 }, (_, n) => ({ userId: user!.id, name: n === 1 && i % 2 === 0 ? `${term} pup` : 'Rex' }))
        : [{ userId: user!.id, name: `${term}${i}` }, { userId: user!.id, name: 'Unrelated' }];
      const ownPets = petValues.length ? await db.insert(pets).values(petValues).returning() : [];
      if (!byOwner) expected.push({ userId: user!.id, petId: ownPets[0]!.id });
      else if (ownPets.length === 0) expected.push({ userId: user!.id, petId: null });
      else expected.push(...ownPets.map((pet) => ({ userId: user!.id, petId: pet.id })));
    }
    expected.sort((a, b) => b.userId - a.userId || (a.petId ?? 0) - (b.petId ?? 0));
    expect(expected.length).toBeGreaterThan(adminUserSearchPageSize);
    const pageCount = Math.ceil(expected.length / adminUserSearchPageSize);
    const pages = await Promise.all(Array.from({ length: pageCount }, async (_, i) => (await searchUsers(term, i + 1)).body.result!));
    for (const page of pages) expect(page).toMatchObject({ total: expected.length, totalCapped: false });
    expect(pages.flatMap((page) => page.rows).map(({ userId, petId }) => ({ userId, petId }))).toEqual(expected);
    expect(pages.at(-1)!.rows).toHaveLength(expected.length - (pageCount - 1) * adminUserSearchPageSize);
  });

  it(`counts up to ${matchCountLimit} matches and says when more match`, async () => {
    const { user } = await ownerWithPet({ lastName: word() });
    const petName = word();
    await ctx.database.db.insert(pets).values(Array.from({ length: matchCountLimit + 1 }, () => ({ userId: user.id, name: petName })));
    const capped = (await searchUsers(petName)).body.result!;
    expect(capped).toMatchObject({ total: matchCountLimit, totalCapped: true });
    expect(capped.rows).toHaveLength(adminUserSearchPageSize);
    await ctx.database.db.delete(pets).where(sql`${pets.id} = (select max(id) from ${pets} where name = ${petName})`);
    expect((await searchUsers(petName)).body.result).toMatchObject({ total: matchCountLimit, totalCapped: false });
  });

  it('counts the owners a name matches through the trigram indexes on the embedded database, and leaves a server’s planner alone', async () => {
    const query = { searchTerm: word(), pageNumber: 1 };
    await ownerWithPet({ lastName: query.searchTerm });
    const plan = (reader: Database | Transaction, statement: SQL) =>
      queryRows<{ 'QUERY PLAN': string }>(reader, sql`explain ${statement}`).then((lines) => lines.map((line) => line['QUERY PLAN']).join('\n'));
    let statement: SQL | undefined;
    const asRun = await readUserSearch(ctx.database, query, (reader, searched) => {
      statement = searched;
      return plan(reader, searched);
    });
    // Left to itself the planner reads the accounts of a registry this small one by one: the check can fail.
    const leftAlone = await plan(ctx.database.db, statement!);
    expect(leftAlone).toMatch(/Seq Scan on users\b/);
    if (ctx.database.kind === 'pglite') {
      expect(asRun).not.toMatch(/Seq Scan on users\b/);
      expect(asRun).toMatch(/Bitmap Index Scan on users_(name|email)_trgm_idx/);
    } else {
      expect(asRun).toBe(leftAlone);
    }
    expect((await searchUsers(query.searchTerm)).body.result!.rows).toHaveLength(1);
    // Two letters have no trigram worth looking up: they are searched as before, and found.
    const { user } = await ownerWithPet({ firstName: 'Qx' });
    expect((await searchUsers('qX')).body.result!.rows.map((row) => row.userId)).toContain(user.id);
  });

  it('answers an empty list when nothing matches', async () => {
    const { status, body } = await searchUsers(word());
    expect(status).toBe(200);
    expect(body.result).toEqual({ rows: [], total: 0, totalCapped: false, pageNumber: 1, pageSize: adminUserSearchPageSize });
  });

  it('refuses an empty, too long or malformed search', async () => {
    for (const term of ['', '   ', undefined, 42]) {
      const bad = await searchUsers(term);
      expect(bad.status, String(term)).toBe(400);
      expect(bad.body.errors).toEqual([messages.userSearchRequired]);
    }
    expect((await searchUsers('x'.repeat(101))).body.errors).toEqual([messages.userSearchTooLong]);
    for (const page of [0, -1, 1.5, '1']) {
      const bad = await searchUsers('Rivera', page);
      expect(bad.status).toBe(400);
      expect(bad.body.errors).toEqual([messages.invalidRequest]);
    }
  });
});

describe('GET admin/stripe-transactions', () => {
  it('finds the payment of a portal checkout paid with 4242 4242 4242 4242', async () => {
    const owner = await signUpOwner(ctx.app);
    const pet = await registerPet(ctx.app, owner.token);
    const { body: plans } = await call<{ plans: { id: number; oneTime: boolean }[] }>(ctx.app, 'GET', 'pet/plans');
    const yearly = plans.result!.plans.find((plan) => !plan.oneTime)!.id;
    await call(ctx.app, 'PUT', 'Pet/update-plan', { token: owner.token, body: { id: pet.id, planId: yearly } });
    const started = await call<{ location: string }>(ctx.app, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=false&isTagSelected=false`, {
      token: owner.token,
    });
    const sessionId = started.body.result!.location.split('/checkout/')[1]!;
    const paid = await call(ctx.app, 'POST', `checkout/local/${sessionId}/pay`, {
      token: owner.token,
      body: { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' },
    });
    expect(paid.status).toBe(200);

    const [payment] = await ctx.database.db.select().from(payments).where(eq(payments.providerSessionId, sessionId));
    const { status, body } = await byCard('4242');
    expect(status).toBe(200);
    expect(body.result![0]).toEqual({
      paymentIntentId: payment!.providerPaymentId,
      last4: '4242',
      created: payment!.createdAt.toISOString(),
      name: 'Jamie Rivera',
      email: owner.input.email,
      amount: 1995,
      currency: 'usd',
      status: 'paid',
      petId: pet.id,
      petName: 'Biscuit',
      product: 'Yearly Protection',
    });
  });

  it('lists only payments with those last 4 digits, the latest first, named after the account when the card has no name', async () => {
    const owner = await signUpOwner(ctx.app);
    const key = String(randomInt(1000, 10000));
    const row = (sessionId: string, createdAt: Date, cardLast4 = key) => ({
      userId: owner.user.id,
      provider: 'local',
      providerSessionId: sessionId,
      providerPaymentId: `pi_${sessionId}`,
      cardLast4,
      amountCents: 4995,
      currency: 'usd',
      status: 'paid',
      createdAt,
    });
    const tag = word();
    await ctx.database.db.insert(payments).values([
      row(`${tag}_old`, new Date('2026-01-02T10:00:00Z')),
      row(`${tag}_new`, new Date('2026-03-04T10:00:00Z')),
      row(`${tag}_other`, new Date('2026-03-05T10:00:00Z'), key === '1111' ? '2222' : '1111'),
    ]);
    const rows = (await byCard(key)).body.result!.filter((r) => r.paymentIntentId?.startsWith(`pi_${tag}`));
    expect(rows.map((r) => r.paymentIntentId)).toEqual([`pi_${tag}_new`, `pi_${tag}_old`]);
    // A payment recorded for no pet names none.
    expect(rows[0]).toMatchObject({ petId: null, petName: null, product: null });
    expect(rows[0]).toMatchObject({ name: 'Jamie Rivera', email: owner.input.email, last4: key, amount: 4995 });
  });

  it('answers an empty list when no card ends so', async () => {
    // Other tests' cards end in 4242 or in 1000 to 9999.
    const { status, body } = await byCard('0007');
    expect(status).toBe(200);
    expect(body.result).toEqual([]);
  });

  it('asks for exactly 4 digits', async () => {
    for (const key of ['', '424', '42424', 'abcd', '42 4']) {
      const bad = await byCard(key);
      expect(bad.status, key).toBe(400);
      expect(bad.body.errors).toEqual([messages.cardLast4Invalid]);
    }
  });
});
