import { createHash } from 'node:crypto';
import { messages, type ApiKeyEntry, type AuthResult, type IssuedApiKey } from '@petreg/contract';
import { and, eq, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { Database } from '../src/db/client.js';
import { apiKeys, auditLog, chips, pets, users } from '../src/db/schema.js';
import { createApiKeyGate, newApiKey } from '../src/modules/public/apiKeys.js';
import type { OpenLookupResult } from '../src/modules/public/openLookup.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { call, createTestApp, registerPet, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestApp({ env: { PUBLIC_URL: 'https://registry.example.org/' } });
  await ensureAdministrator(db(), { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
});
afterAll(() => ctx.close());

/** Every value the owner could be recognised by; none may appear in an open lookup's answer. */
const owner = {
  firstName: 'Zebulon',
  lastName: 'Quartermaine',
  email: 'zebulon.quartermaine7731@example.com',
  phoneNumber: '(415) 555-7731',
  city: 'Kalamazoo',
  address1: '77 Wisteria Lane',
  zipcode: '49007',
  petName: 'Snufflewhisk',
};

let chipCounter = 0;
const newChip = (prefix = '985') => `${prefix}${String(Date.now() % 1e9).padStart(9, '0')}${String(chipCounter++).padStart(3, '0')}`.slice(0, 15);

/** A pet of the distinctive owner, registered with an active yearly registration. */
async function registeredPet(chipId = newChip()) {
  const signedUp = await signUpOwner(ctx.app, { firstName: owner.firstName, lastName: owner.lastName, email: `${chipCounter}${owner.email}`, phoneNumber: owner.phoneNumber });
  await db().update(users).set({ city: owner.city, address1: owner.address1, zipcode: owner.zipcode }).where(eq(users.id, signedUp.user.id));
  const pet = await registerPet(ctx.app, signedUp.token, chipId);
  await db().update(pets).set({ name: owner.petName, isActive: true }).where(eq(pets.id, pet.id));
  await db().update(chips).set({ isActive: true, expirationDate: new Date(Date.now() + 365 * 86_400_000) }).where(eq(chips.petId, pet.id));
  return { userId: signedUp.user.id, email: signedUp.input.email, petId: pet.id, chipId };
}

const lookup = (chip: string, options: { ip?: string; headers?: Record<string, string> } = {}) =>
  ctx.app.inject({ method: 'GET', url: `/api/v2/public/lookup/${encodeURIComponent(chip)}`, remoteAddress: options.ip ?? '10.9.0.1', headers: options.headers });
const resultOf = (response: Awaited<ReturnType<typeof lookup>>) => (response.json() as { result: OpenLookupResult }).result;

const registry = { name: 'Pet Registry', phone: '(800) 555-0142 ext. 703', phoneHref: 'tel:+18005550142,703' };
const today = () => new Date().toISOString().slice(0, 10);

describe('GET public/lookup/{chip}', () => {
  it('answers a registered chip: registry, last update and the report form, and nothing of the owner', async () => {
    const { chipId, email } = await registeredPet();
    const response = await lookup(chipId);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      succeeded: true,
      errors: [],
      result: {
        version: 1,
        chip: {
          number: chipId,
          format: 'iso',
          formatName: 'ISO 11784/11785 FDX-B (15 digits)',
          manufacturer: 'Destron Fearing / HomeAgain',
          countryCode: null,
          testChip: false,
          sharedCode: false,
        },
        registered: true,
        lastUpdated: today(),
        registry,
        reportUrl: `https://registry.example.org/found?chip=${chipId}`,
      },
    });
    const body = response.body.toLowerCase();
    for (const value of [...Object.values(owner), email, '4155557731', '555-7731']) expect(body).not.toContain(value.toLowerCase());
  });

  it('answers a chip registered nowhere here with no date and no report form', async () => {
    const chipId = newChip('982');
    const response = await lookup(chipId);
    expect(response.statusCode).toBe(200);
    expect(resultOf(response)).toEqual({
      version: 1,
      chip: { number: chipId, format: 'iso', formatName: 'ISO 11784/11785 FDX-B (15 digits)', manufacturer: 'Allflex / 24PetWatch', countryCode: null, testChip: false, sharedCode: false },
      registered: false,
      lastUpdated: null,
      registry,
      reportUrl: null,
    });
  });

  it.each([
    ['999000000000001', { format: 'iso', manufacturer: 'Test code, never issued to a pet chip', testChip: true, sharedCode: false }],
    ['900123000123456', { format: 'iso', manufacturer: 'Shared code of several small vendors', testChip: false, sharedCode: true }],
    ['900164000123456', { format: 'iso', manufacturer: 'Save This Life', testChip: false, sharedCode: true }],
    ['0a12-345678', { number: '0A12345678', format: 'tenCharacter', formatName: '10-character FDX-A (125 kHz)', manufacturer: '24PetWatch', testChip: false }],
    ['AVID*123*456*789', { number: '123456789', format: 'nineDigit', formatName: '9-digit AVID', manufacturer: 'AVID', testChip: false, sharedCode: false }],
    ['840098100123456', { format: 'iso', manufacturer: null, countryCode: '840', testChip: false, sharedCode: false }],
  ])('tells what the number %s says of itself', async (chip, expected) => {
    const response = await lookup(chip);
    expect(response.statusCode).toBe(200);
    expect(resultOf(response).chip).toMatchObject(expected);
  });

  it('refuses a number of no chip length with the lookup\'s words, open to any origin', async () => {
    const response = await lookup('12345678');
    expect(response.statusCode).toBe(400);
    expect(response.json()).toEqual({ succeeded: false, result: null, errors: [messages.lookupLength] });
    expect(response.headers['access-control-allow-origin']).toBe('*');
  });

  it('dates the registration by the latest change of the chip, the pet or the owner\'s contact details, at once', async () => {
    const { chipId, petId, userId } = await registeredPet();
    await db().update(chips).set({ createdAt: new Date('2024-01-05T12:00:00Z') }).where(eq(chips.petId, petId));
    await db().update(pets).set({ updatedAt: new Date('2024-03-09T12:00:00Z') }).where(eq(pets.id, petId));
    await db().update(users).set({ contactUpdatedAt: new Date('2024-02-01T12:00:00Z') }).where(eq(users.id, userId));
    expect(resultOf(await lookup(chipId)).lastUpdated).toBe('2024-03-09');
    await db().update(users).set({ contactUpdatedAt: new Date('2024-06-30T23:30:00Z') }).where(eq(users.id, userId));
    expect(resultOf(await lookup(chipId)).lastUpdated).toBe('2024-06-30');
    // A password or a setting is no contact detail; a new phone number is.
    await db().update(users).set({ passwordHash: 'changed', settings: { theme: 'dark' } }).where(eq(users.id, userId));
    expect(resultOf(await lookup(chipId)).lastUpdated).toBe('2024-06-30');
    await db().update(users).set({ phoneNumber: '+14155550000' }).where(eq(users.id, userId));
    expect(resultOf(await lookup(chipId)).lastUpdated).toBe(today());
  });

  it('serves the public lookup\'s remembered answers: a write nothing announces is not seen, an announced one at once', async () => {
    const { chipId, petId } = await registeredPet();
    expect(resultOf(await lookup(chipId)).registered).toBe(true);
    await db().transaction(async (tx) => {
      await tx.execute(sql`alter table ${chips} disable trigger user`);
      await tx.execute(sql`update ${chips} set is_active = false where pet_id = ${petId}`);
      await tx.execute(sql`alter table ${chips} enable trigger user`);
    });
    expect(resultOf(await lookup(chipId)).registered).toBe(true);
    expect((await call<{ isRegistered: boolean }>(ctx.app, 'GET', `utilities/microchip-lookup?id=${chipId}`)).body.result!.isRegistered).toBe(true);
    await db().update(pets).set({ isActive: false }).where(eq(pets.id, petId));
    expect(resultOf(await lookup(chipId))).toMatchObject({ registered: false, lastUpdated: null, reportUrl: null });
  });
});

describe('open to any origin', () => {
  it('lets a page anywhere read the answer, and answers the preflight a key header brings', async () => {
    const answered = await lookup(newChip(), { headers: { origin: 'https://shelter.example.net' } });
    expect(answered.headers['access-control-allow-origin']).toBe('*');
    expect(answered.headers['cross-origin-resource-policy']).toBe('cross-origin');
    const preflight = await ctx.app.inject({
      method: 'OPTIONS',
      url: `/api/v2/public/lookup/${newChip()}`,
      headers: { origin: 'https://shelter.example.net', 'access-control-request-method': 'GET', 'access-control-request-headers': 'x-api-key' },
    });
    expect(preflight.statusCode).toBe(204);
    expect(preflight.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, OPTIONS',
      'access-control-allow-headers': 'Authorization, X-Api-Key',
    });
  });

  it('is the only route open so', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: `/api/v2/utilities/microchip-lookup?id=${newChip()}`, headers: { origin: 'https://shelter.example.net' } });
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    expect(response.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('limits', () => {
  it('holds an address without a key to 30 calls a minute, and tells it so in a readable refusal', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await lookup(newChip(), { ip: '10.1.0.1' })).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    const refused = await lookup(newChip(), { ip: '10.1.0.1' });
    expect(refused.statusCode).toBe(429);
    expect(refused.json()).toEqual({ succeeded: false, result: null, errors: [messages.tooManyRequests] });
    expect(refused.headers['access-control-allow-origin']).toBe('*');
    expect((await lookup(newChip(), { ip: '10.1.0.2' })).statusCode).toBe(200);
  });

  it('counts a call with a key unknown here against its address, so a made-up key on every call is no way past the limit', async () => {
    const statuses: number[] = [];
    for (let i = 0; i < 30; i++) statuses.push((await lookup(newChip(), { ip: '10.1.1.1', headers: { 'x-api-key': newApiKey().key } })).statusCode);
    expect(statuses.every((s) => s === 401)).toBe(true);
    const refused = await lookup(newChip(), { ip: '10.1.1.1', headers: bearer(newApiKey().key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors).toEqual([messages.tooManyRequests]);
    expect((await lookup(newChip(), { ip: '10.1.1.1' })).statusCode).toBe(429);
  });

  it('holds the addresses of one IPv6 /64, which one host may hold, to one limit', async () => {
    const statuses: number[] = [];
    for (let i = 1; i <= 30; i++) statuses.push((await lookup(newChip(), { ip: `2001:db8:7:1::${i.toString(16)}` })).statusCode);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect((await lookup(newChip(), { ip: '2001:db8:7:1:ffff:ffff:ffff:fffe' })).statusCode).toBe(429);
    expect((await lookup(newChip(), { ip: '2001:db8:7:2::1' })).statusCode).toBe(200);
  });
});

const issue = (body: unknown, token = admin.token) => call<IssuedApiKey>(ctx.app, 'POST', 'admin/api-keys', { body, token });
const list = async () => (await call<ApiKeyEntry[]>(ctx.app, 'GET', 'admin/api-keys', { token: admin.token })).body.result!;
const revoke = (id: number, token = admin.token) => call<ApiKeyEntry>(ctx.app, 'POST', `admin/api-keys/${id}/revoke`, { token });
const bearer = (key: string) => ({ authorization: `Bearer ${key}` });

describe('API keys', () => {
  it('are issued once in clear, kept only as their hash, and audited', async () => {
    const { status, body } = await issue({ name: '  Riverside Shelter  ', requests: 500, per: 'hour' });
    expect(status).toBe(200);
    const { key, entry } = body.result!;
    expect(key).toMatch(/^prk_[\w-]{43}$/);
    expect(entry).toEqual({
      id: expect.any(Number),
      name: 'Riverside Shelter',
      prefix: key.slice(0, 12),
      requests: 500,
      per: 'hour',
      createdAt: expect.any(String),
      createdBy: 'root@example.com',
      usageCount: 0,
      lastUsedAt: null,
      revokedAt: null,
      revokedBy: null,
    });
    const [stored] = await db().select().from(apiKeys).where(eq(apiKeys.id, entry.id));
    expect(stored!.keyHash).toBe(createHash('sha256').update(key).digest('hex'));
    expect(JSON.stringify(stored)).not.toContain(key);
    expect(await list()).toContainEqual(entry);
    expect(JSON.stringify(await list())).not.toContain(key);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.entity, 'api_key'), eq(auditLog.entityId, String(entry.id))));
    expect(audits).toEqual([expect.objectContaining({ actorUserId: admin.user.id, action: 'issue', after: { name: 'Riverside Shelter', prefix: entry.prefix, requests: 500, per: 'hour' } })]);
    expect(JSON.stringify(audits)).not.toContain(key);
  });

  it('hold each key to its own limit from every address, and count its use', async () => {
    const { key, entry } = (await issue({ name: 'County Animal Services', requests: 3, per: 'minute' })).body.result!;
    for (const ip of ['10.2.0.1', '10.2.0.2']) {
      const answered = await lookup(newChip(), { ip, headers: bearer(key) });
      expect(answered.statusCode).toBe(200);
      expect(answered.headers['x-ratelimit-limit']).toBe('3');
    }
    // The allow-listed address is exempt from the limit of addresses, not from a key's.
    expect((await lookup(newChip(), { ip: '127.0.0.1', headers: { 'x-api-key': key } })).statusCode).toBe(200);
    const refused = await lookup(newChip(), { ip: '10.2.0.3', headers: bearer(key) });
    expect(refused.statusCode).toBe(429);
    expect(refused.json().errors).toEqual([messages.tooManyRequests]);
    // The addresses the key was used from keep their own allowance without it.
    expect((await lookup(newChip(), { ip: '10.2.0.1' })).statusCode).toBe(200);
    const listed = (await list()).find((k) => k.id === entry.id)!;
    expect(listed.usageCount).toBe(3);
    expect(Date.now() - Date.parse(listed.lastUsedAt!)).toBeLessThan(60_000);
  });

  it('count their window by the hour when issued so', async () => {
    const { key } = (await issue({ name: 'Hourly Registry', requests: 1000, per: 'hour' })).body.result!;
    const answered = await lookup(newChip(), { ip: '10.4.0.1', headers: bearer(key) });
    expect(answered.headers['x-ratelimit-limit']).toBe('1000');
    expect(Number(answered.headers['x-ratelimit-reset'])).toBeGreaterThan(3500);
  });

  it('refuse an unknown key and a revoked one with words saying which, readable from any origin', async () => {
    const unknown = await lookup(newChip(), { headers: bearer('prk_nothing-like-a-real-key') });
    expect(unknown.statusCode).toBe(401);
    expect(unknown.json()).toEqual({ succeeded: false, result: null, errors: [messages.apiKeyUnknown] });
    expect(unknown.headers['access-control-allow-origin']).toBe('*');

    const { key, entry } = (await issue({ name: 'Closing Clinic', requests: 10, per: 'minute' })).body.result!;
    expect((await lookup(newChip(), { headers: { 'x-api-key': key } })).statusCode).toBe(200);
    const revoked = await revoke(entry.id);
    expect(revoked.status).toBe(200);
    expect(revoked.body.result).toMatchObject({ id: entry.id, revokedAt: expect.any(String), revokedBy: 'root@example.com', usageCount: 1 });
    const refused = await lookup(newChip(), { headers: { 'x-api-key': key } });
    expect(refused.statusCode).toBe(401);
    expect(refused.json().errors).toEqual([messages.apiKeyRevoked]);
    expect((await lookup(newChip(), { headers: bearer(key) })).json().errors).toEqual([messages.apiKeyRevoked]);

    const again = await revoke(entry.id);
    expect(again.status).toBe(409);
    expect(again.body.errors).toEqual([messages.apiKeyAlreadyRevoked]);
    expect((await revoke(2_000_000)).status).toBe(404);
    const audits = await db().select().from(auditLog).where(and(eq(auditLog.entity, 'api_key'), eq(auditLog.entityId, String(entry.id))));
    expect(audits.map((a) => a.action).sort()).toEqual(['issue', 'revoke']);
  });

  it('keep a live key remembered however many made-up keys are tried', async () => {
    // A database knowing one key, the first asked for: a gate asking again for it is told it is unknown.
    let asked = 0;
    const known = [{ id: 7, requests: 10, per: 'minute', revokedAt: null }];
    const database = { select: () => ({ from: () => ({ where: async () => (asked++ === 0 ? known : []) }) }) } as unknown as Database;
    const live = { holder: { id: 7, limit: { max: 10, window: 60_000 } } };
    // Time stands still, so only being pushed out can make the gate forget the key.
    vi.useFakeTimers({ toFake: ['Date'] });
    const gate = await createApiKeyGate({ database: { db: database, listen: (...args) => ctx.database.listen(...args) }, log: ctx.app.log });
    try {
      const { key } = newApiKey();
      expect(await gate.check(key)).toEqual(live);
      for (let i = 0; i < 10_001; i++) expect(await gate.check(newApiKey().key)).toEqual({ refused: messages.apiKeyUnknown });
      expect(asked).toBe(10_002);
      expect(await gate.check(key)).toEqual(live);
      expect(asked).toBe(10_002);
    } finally {
      vi.useRealTimers();
      await gate.close();
    }
  });

  it.each([
    [{ name: '   ', requests: 10, per: 'minute' }, messages.apiKeyNameRequired],
    [{ name: 'x'.repeat(101), requests: 10, per: 'minute' }, messages.apiKeyNameTooLong],
    [{ name: 'Line\nbreak', requests: 10, per: 'minute' }, messages.controlCharacter],
    [{ name: 'Shelter', requests: 0, per: 'minute' }, messages.apiKeyLimitInvalid],
    [{ name: 'Shelter', requests: 100_001, per: 'minute' }, messages.apiKeyLimitInvalid],
    [{ name: 'Shelter', requests: 10, per: 'day' }, messages.apiKeyLimitInvalid],
  ])('are refused for %j with the field\'s message', async (body, message) => {
    const { status, body: answer } = await issue(body);
    expect(status).toBe(400);
    expect(answer.errors).toEqual([message]);
  });

  it('are for administrators only', async () => {
    const customer = await signUpOwner(ctx.app);
    const { entry } = (await issue({ name: 'Permission Check', requests: 5, per: 'minute' })).body.result!;
    for (const [method, url, body] of [
      ['GET', 'admin/api-keys', undefined],
      ['POST', 'admin/api-keys', { name: 'Sneaky', requests: 5, per: 'minute' }],
      ['POST', `admin/api-keys/${entry.id}/revoke`, undefined],
    ] as const) {
      expect((await call(ctx.app, method, url, { body })).status).toBe(401);
      const asOwner = await call(ctx.app, method, url, { body, token: customer.token });
      expect(asOwner.status).toBe(403);
      expect(asOwner.body.errors).toEqual([messages.forbidden]);
    }
    expect((await list()).find((k) => k.id === entry.id)!.revokedAt).toBeNull();
    expect((await list()).some((k) => k.name === 'Sneaky')).toBe(false);
  });
});

describe('the OpenAPI document', () => {
  it('documents the open lookup, its answer and its keys', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' })).json();
    const operation = doc.paths['/api/v2/public/lookup/{chip}'].get;
    expect(operation.security).toEqual([{}, { apiKeyBearer: [] }, { apiKeyHeader: [] }]);
    const answer = operation.responses['200'].content['application/json'].schema.properties.result;
    expect(Object.keys(answer.properties)).toEqual(['version', 'chip', 'registered', 'lastUpdated', 'registry', 'reportUrl']);
    expect(doc.components.securitySchemes).toMatchObject({ apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-Api-Key' }, apiKeyBearer: { type: 'http', scheme: 'bearer' } });
    expect(doc.paths['/api/v2/public/lookup/{chip}'].options).toBeUndefined();
  });
});
