import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import {
  adminSitesPageSize,
  messages,
  siteImportLimits,
  type AdminSitesPage,
  type AuthResult,
  type PublicProfile,
  type RemovedSamples,
  type Site,
  type SiteSearchPage,
  type SiteImportResult,
} from '@petreg/contract';
import { parse } from 'csv-parse/sync';
import { and, eq, inArray, like } from 'drizzle-orm';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, emailUnsubscribes, pets, sites } from '../src/db/schema.js';
import { findZip } from '../src/geography.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { alertKit } from './alertKit.js';
import { call, createTestApp, multipart, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
let owner: string;
beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
  owner = (await signUpOwner(ctx.app)).token;
});
afterAll(() => ctx.close());
const { siteNear, ownerWithLostPet, sendAndPay, recipientsOf } = alertKit(() => ctx);

/** A word no other test's site carries, so searches and matches see only this test's sites. */
const tag = () => `Zq${randomUUID().replace(/-/g, '').slice(0, 10)}`;

const site = (overrides: Record<string, unknown> = {}) => ({
  name: `${tag()} Animal Hospital`,
  kind: 'Veterinary Care',
  email: 'front.desk@example.org',
  phoneNumber: '(314) 555-0142',
  address1: '100 Market St',
  city: '',
  state: '',
  zipCode: '63101',
  url: 'https://vet.example.org',
  receivesAlerts: true,
  ...overrides,
});

const siteRow = async (id: number) => (await ctx.database.db.select().from(sites).where(eq(sites.id, id)))[0]!;
const auditOf = (id: number) => ctx.database.db.select().from(auditLog).where(and(eq(auditLog.entity, 'site'), eq(auditLog.entityId, String(id))));

async function addSite(overrides: Record<string, unknown> = {}) {
  const created = await call<{ id: number }>(ctx.app, 'POST', 'admin/sites', { token: admin.token, body: site(overrides) });
  expect(created.status, created.body.errors.join()).toBe(200);
  return created.body.result!.id;
}

/** Uploads a sites file as the administrator, or with another token (null: none). */
async function upload(content: string | Buffer | null, token: string | null = admin.token, filename = 'sites.csv') {
  const body = multipart(content === null ? [{ name: 'note', content: 'no file here' }] : [{ name: 'file', filename, type: 'text/csv', content }]);
  const response = await ctx.app.inject({
    method: 'POST',
    url: '/api/v2/admin/sites/import',
    payload: body.payload,
    headers: { 'content-type': body.contentType, ...(token && { authorization: `Bearer ${token}` }) } as InjectOptions['headers'],
  });
  const envelope = response.json() as { succeeded: boolean; result: SiteImportResult | null; errors: string[] };
  return { status: response.statusCode, ...envelope };
}

/** The result file's rows, read as a spreadsheet would. */
function resultRows(result: SiteImportResult): Record<string, string>[] {
  const text = Buffer.from(result.fileContents, 'base64').toString('utf8');
  expect(text.startsWith('\ufeff')).toBe(true);
  return parse(text, { bom: true, columns: true });
}

const header = 'name,kind,email,phoneNumber,address1,city,state,zipCode,url,receivesAlerts';
const csv = (...rows: string[]) => [header, ...rows].join('\r\n');

describe('who may call the administrators’ directory', () => {
  const calls: [InjectOptions['method'], string, unknown][] = [
    ['GET', 'admin/sites', undefined],
    ['POST', 'admin/sites', site()],
    ['PUT', 'admin/sites/1', site()],
    ['POST', 'admin/sites/import', undefined],
    ['POST', 'admin/sites/remove-samples', undefined],
  ];

  it.each(calls)('%s %s: a guest gets 401, an owner 403, and nothing changes', async (method, path, body) => {
    const before = await ctx.database.db.$count(sites);
    const guest = await call(ctx.app, method, path, { body });
    expect(guest.status).toBe(401);
    expect(guest.body.errors).toEqual([messages.invalidAccessToken]);
    const customer = await call(ctx.app, method, path, { body, token: owner });
    expect(customer.status).toBe(403);
    expect(customer.body.errors).toEqual([messages.forbidden]);
    expect(await ctx.database.db.$count(sites)).toBe(before);
  });

  it('an owner cannot import a file either', async () => {
    expect((await upload(csv(`${tag()},Rescue,,,,,,63101,,no`), owner)).status).toBe(403);
    expect((await upload(csv(`${tag()},Rescue,,,,,,63101,,no`), null)).status).toBe(401);
  });
});

describe('POST admin/sites', () => {
  it('adds a site at its ZIP’s centre, with the city and state of the ZIP, audited', async () => {
    const input = site();
    const id = await addSite(input);
    const row = await siteRow(id);
    const zip = (await findZip(ctx.database.db, '63101'))!;
    expect(row).toMatchObject({
      name: input.name,
      practiceType: 'Veterinary Care',
      email: 'front.desk@example.org',
      phoneNumber: '+13145550142',
      city: 'Saint Louis',
      state: 'MO',
      zipCode: '63101',
      receivesAlerts: true,
      isActive: true,
      source: 'admin',
      createdBy: admin.user.id,
      latitude: zip.latitude,
      longitude: zip.longitude,
    });
    const [entry] = await auditOf(id);
    expect(entry).toMatchObject({ actorUserId: admin.user.id, action: 'create', before: null });
    expect(entry!.after).toMatchObject({ id, name: input.name, source: 'admin' });
  });

  it('keeps a city and state that are given', async () => {
    const id = await addSite({ city: 'St. Louis', state: 'mo' });
    expect(await siteRow(id)).toMatchObject({ city: 'St. Louis', state: 'MO' });
  });

  it('refuses an unknown ZIP, adding nothing', async () => {
    const before = await ctx.database.db.$count(sites);
    const refused = await call(ctx.app, 'POST', 'admin/sites', { token: admin.token, body: site({ zipCode: '00000' }) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([messages.zipUnknown]);
    expect(await ctx.database.db.$count(sites)).toBe(before);
  });

  it.each([
    [{ name: '  ' }, messages.siteNameRequired],
    [{ kind: 'Dentist' }, messages.siteKindInvalid],
    [{ email: 'not-an-email' }, messages.emailInvalid],
    [{ phoneNumber: '12' }, messages.phoneInvalid],
    [{ zipCode: '631' }, messages.zipInvalid],
    [{ state: 'Missouri' }, messages.stateInvalid],
    [{ url: 'ftp://files.example.org' }, messages.siteUrlInvalid],
    [{ url: 'vet clinic' }, messages.siteUrlInvalid],
    [{ email: '', receivesAlerts: true }, messages.siteAlertsNeedEmail],
  ])('refuses %o with the field’s message', async (overrides, message) => {
    const refused = await call(ctx.app, 'POST', 'admin/sites', { token: admin.token, body: site(overrides) });
    expect(refused.status).toBe(400);
    expect(refused.body.errors).toEqual([message]);
  });

  it('completes a website typed without http:// to https://, on adding and on changing', async () => {
    const id = await addSite({ url: 'www.vet.com' });
    expect((await siteRow(id)).url).toBe('https://www.vet.com');
    await call(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: site({ url: 'clinic.example.org/hours' }) });
    expect((await siteRow(id)).url).toBe('https://clinic.example.org/hours');
    await call(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: site({ url: 'http://www.vet.com' }) });
    expect((await siteRow(id)).url).toBe('http://www.vet.com');
  });

  it('adds a site without an e-mail when it receives no alerts', async () => {
    const id = await addSite({ email: '', receivesAlerts: false });
    expect(await siteRow(id)).toMatchObject({ email: null, receivesAlerts: false });
  });
});

describe('PUT admin/sites/{id}', () => {
  it('changes a site, turns its alerts off and switches it off, audited before and after', async () => {
    const id = await addSite();
    const before = await siteRow(id);
    const changed = site({ name: `${tag()} Pet Clinic`, kind: 'Emergency Vet', receivesAlerts: false, isActive: false, city: 'Saint Louis' });
    const saved = await call<{ id: number }>(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: changed });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toEqual({ id });
    const after = await siteRow(id);
    expect(after).toMatchObject({ name: changed.name, practiceType: 'Emergency Vet', receivesAlerts: false, isActive: false, source: 'admin' });
    expect(after.latitude).toBe(before.latitude);
    const entry = (await auditOf(id)).find((e) => e.action === 'update')!;
    expect(entry.actorUserId).toBe(admin.user.id);
    expect(entry.before).toMatchObject({ name: before.name, receivesAlerts: true, isActive: true });
    expect(entry.after).toMatchObject({ name: changed.name, receivesAlerts: false, isActive: false });
  });

  it('keeps the active state when the form leaves it out', async () => {
    const id = await addSite({ isActive: false });
    await call(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: site() });
    expect((await siteRow(id)).isActive).toBe(false);
  });

  it('moves the site to the new ZIP’s centre when the ZIP changes, and keeps precise coordinates otherwise', async () => {
    const id = await addSite();
    await ctx.database.db.update(sites).set({ latitude: 38.6301, longitude: -90.1912 }).where(eq(sites.id, id));
    await call(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: site({ phoneNumber: '(314) 555-0199' }) });
    expect(await siteRow(id)).toMatchObject({ latitude: 38.6301, longitude: -90.1912, phoneNumber: '+13145550199' });

    const saved = await call(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: site({ zipCode: '10001' }) });
    expect(saved.status).toBe(200);
    const zip = (await findZip(ctx.database.db, '10001'))!;
    expect(await siteRow(id)).toMatchObject({ zipCode: '10001', city: zip.city, state: 'NY', latitude: zip.latitude, longitude: zip.longitude });
  });

  it('answers 404 for an unknown site, 400 for a bad id or an unknown ZIP, changing nothing', async () => {
    const missing = await call(ctx.app, 'PUT', 'admin/sites/2147483647', { token: admin.token, body: site() });
    expect(missing.status).toBe(404);
    expect(missing.body.errors).toEqual([messages.notFound]);
    expect((await call(ctx.app, 'PUT', 'admin/sites/abc', { token: admin.token, body: site() })).status).toBe(400);
    const id = await addSite();
    const unknownZip = await call(ctx.app, 'PUT', `admin/sites/${id}`, { token: admin.token, body: site({ zipCode: '00000' }) });
    expect(unknownZip.body.errors).toEqual([messages.zipUnknown]);
    expect((await siteRow(id)).zipCode).toBe('63101');
    expect((await auditOf(id)).map((e) => e.action)).toEqual(['create']);
  });
});

describe('GET admin/sites', () => {
  const list = async (query: string, page = 1, filter = 'all') => {
    const answer = await call<AdminSitesPage>(ctx.app, 'GET', `admin/sites?query=${encodeURIComponent(query)}&page=${page}&filter=${filter}`, {
      token: admin.token,
    });
    expect(answer.status, answer.body.errors.join()).toBe(200);
    return answer.body.result!;
  };

  it('shows all, active, inactive, sample or unsubscribed sites, and counts the active samples', async () => {
    const word = tag();
    const values = (name: string, more: Partial<typeof sites.$inferInsert>) => ({ name: `${word} ${name}`, zipCode: '63101', source: 'admin', ...more });
    await ctx.database.db.insert(sites).values([
      values('Active', { email: 'active@example.org' }),
      values('Inactive', { isActive: false }),
      values('Sample On', { source: 'sample' }),
      values('Sample Off', { source: 'sample', isActive: false }),
      values('Unsubscribed', { email: ` ${word}.Left@Example.org ` }),
    ]);
    await ctx.database.db.insert(emailUnsubscribes).values({ email: `${word.toLowerCase()}.left@example.org` });
    const names = async (filter: string) => (await list(word, 1, filter)).items.map((item) => item.name.slice(word.length + 1)).sort();

    expect(await names('all')).toEqual(['Active', 'Inactive', 'Sample Off', 'Sample On', 'Unsubscribed']);
    expect(await names('active')).toEqual(['Active', 'Sample On', 'Unsubscribed']);
    expect(await names('inactive')).toEqual(['Inactive', 'Sample Off']);
    expect(await names('sample')).toEqual(['Sample Off', 'Sample On']);
    expect(await names('unsubscribed')).toEqual(['Unsubscribed']);
    const page = await list(word, 1, 'unsubscribed');
    expect(page).toMatchObject({ total: 1, items: [{ unsubscribed: true }] });
    expect((await list(word)).items.filter((item) => item.unsubscribed)).toHaveLength(1);
    expect(page.activeSamples).toBe(await ctx.database.db.$count(sites, and(eq(sites.source, 'sample'), eq(sites.isActive, true))));
    expect(page.activeSamples).toBeGreaterThanOrEqual(1);

    const bad = await call(ctx.app, 'GET', `admin/sites?filter=deleted`, { token: admin.token });
    expect([bad.status, bad.body.errors]).toEqual([400, [messages.invalidRequest]]);
  });

  it('finds sites by part of the name or address, e-mail, city and ZIP, inactive ones after active ones', async () => {
    const word = tag();
    const active = await addSite({ name: `${word} Banfield Hospital`, email: `${word.toLowerCase()}@clinic.example.org`, address1: `7 ${word} Way` });
    const inactive = await addSite({ name: `${word} Animal Rescue`, kind: 'Rescue', isActive: false, receivesAlerts: false, email: '' });

    const byName = await list(word);
    expect(byName.items.map((s) => s.id)).toEqual([active, inactive]);
    expect(byName.total).toBe(2);
    expect(byName.items[0]).toMatchObject({ kind: 'Veterinary Care', source: 'admin', city: 'Saint Louis', state: 'MO', zipCode: '63101', receivesAlerts: true });
    expect(byName.items[1]).toMatchObject({ kind: 'Rescue', isActive: false });

    expect((await list(`${word} banfield`)).items.map((s) => s.id)).toEqual([active]);
    expect((await list(`${word} way`)).items.map((s) => s.id)).toEqual([active]);
    expect((await list(`${word.toLowerCase()}@clinic`)).items.map((s) => s.id)).toEqual([active]);
    const city = await list('saint louis');
    expect(city.items.map((s) => s.city)).toContain('Saint Louis');
    const zip = await list('63101');
    expect(zip.total).toBeGreaterThanOrEqual(2);
    expect(zip.items.every((s) => s.zipCode === '63101')).toBe(true);
    const prefix = await list('631');
    // At least this test's two sites at 63101, so that every below has something to check.
    expect(prefix.items.length).toBeGreaterThanOrEqual(2);
    expect(prefix.items.every((s) => s.zipCode!.startsWith('631'))).toBe(true);
    expect((await list('%_')).total).toBe(0);
  });

  it(`pages ${adminSitesPageSize} sites at a time and counts them all`, async () => {
    const word = tag();
    await ctx.database.db.insert(sites).values(
      Array.from({ length: adminSitesPageSize + 3 }, (_, i) => ({ name: `${word} Clinic ${String(i).padStart(2, '0')}`, zipCode: '63101', source: 'admin' })),
    );
    const first = await list(word);
    expect(first.total).toBe(adminSitesPageSize + 3);
    expect(first.items).toHaveLength(adminSitesPageSize);
    const second = await list(word, 2);
    expect(second.items.map((s) => s.name)).toEqual([`${word} Clinic 25`, `${word} Clinic 26`, `${word} Clinic 27`]);
    expect((await list(word, 3)).items).toEqual([]);
  });

  it('lists everything without a query, and refuses a bad page', async () => {
    expect((await list('')).total).toBe(await ctx.database.db.$count(sites));
    const bad = await call(ctx.app, 'GET', 'admin/sites?page=0', { token: admin.token });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([messages.invalidRequest]);
  });
});

describe('POST admin/sites/import', () => {
  it('adds the good rows and reports every row, bad ones with their reason', async () => {
    const [good, second, badKind, badEmail, noEmail, unknownZip] = [tag(), tag(), tag(), tag(), tag(), tag()];
    const result = await upload(
      csv(
        `${good} Veterinary Clinic,veterinary care,Info@Good.example.org,(314) 555-0142,1 Main St,,,63101,https://good.example.org,yes`,
        `"${second} Shelter, Inc.",Animal Shelter,,,,,,2134,,no`,
        `${badKind} Dental,Dentist,a@example.org,,,,,63101,,no`,
        `${badEmail} Rescue,Rescue,not-an-email,,,,,63101,,1`,
        `${noEmail} Rescue,Rescue,,,,,,63101,,true`,
        `${unknownZip} Rescue,Rescue,,,,,,00000,,`,
        ',,,,,,,,,',
      ),
    );
    expect(result.status, result.errors.join()).toBe(200);
    expect(result.result).toMatchObject({ contentType: 'text/csv', fileDownloadName: expect.stringMatching(/^sites-import-result-.+\.csv$/) });
    expect(result.result!.counts).toEqual({ created: 2, updated: 0, skipped: 0, error: 4 });
    const rows = resultRows(result.result!);
    expect(Object.keys(rows[0]!)).toEqual([...header.split(','), 'status', 'reason']);
    expect(rows.map((r) => [r.status, r.reason])).toEqual([
      ['created', ''],
      ['created', ''],
      ['error', messages.siteKindInvalid],
      ['error', messages.emailInvalid],
      ['error', messages.siteAlertsNeedEmail],
      ['error', messages.zipUnknown],
    ]);
    expect(rows[1]!.name).toBe(`${second} Shelter, Inc.`);

    const added = await ctx.database.db.select().from(sites).where(inArray(sites.name, [`${good} Veterinary Clinic`, `${second} Shelter, Inc.`]));
    expect(added.find((s) => s.name.startsWith(good))).toMatchObject({
      practiceType: 'Veterinary Care',
      email: 'info@good.example.org',
      phoneNumber: '+13145550142',
      city: 'Saint Louis',
      receivesAlerts: true,
      source: 'import',
      createdBy: admin.user.id,
    });
    expect(added.find((s) => s.name.startsWith(second))).toMatchObject({ zipCode: '02134', state: 'MA', receivesAlerts: false, latitude: expect.any(Number) });
    for (const row of added) expect((await auditOf(row.id)).map((e) => e.action)).toEqual(['import-create']);
    expect(await ctx.database.db.$count(sites, like(sites.name, `${badKind}%`))).toBe(0);
  });

  it('imports the same file twice without adding anything twice, and a duplicate row once', async () => {
    const word = tag();
    const vet = `${word} Vet,Veterinary Care,${word}@example.org,,,,,63101,,yes`;
    // The last row names the vet again with blank cells, which keep what the site has.
    const file = csv(vet, vet, `${word} Rescue,Rescue,,,,,,63101,,no`, `${word} Vet,Veterinary Care,,,,,,63101,,`);
    const first = await upload(file);
    expect(first.result!.counts).toEqual({ created: 2, updated: 0, skipped: 2, error: 0 });
    expect(resultRows(first.result!).map((r) => [r.status, r.reason])).toEqual([
      ['created', ''],
      ['skipped', messages.csvRowUnchanged],
      ['created', ''],
      ['skipped', messages.csvRowUnchanged],
    ]);
    const second = await upload(file);
    expect(second.result!.counts).toEqual({ created: 0, updated: 0, skipped: 4, error: 0 });
    const rows = await ctx.database.db.select().from(sites).where(like(sites.name, `${word}%`));
    expect(rows).toHaveLength(2);
    // The blank cells of the duplicate row kept the e-mail and the alerts of the first.
    expect(rows.find((s) => s.practiceType === 'Veterinary Care')).toMatchObject({ email: `${word.toLowerCase()}@example.org`, receivesAlerts: true });
  });

  it('matches a listed site by its name whatever the case, at the same ZIP only', async () => {
    const word = tag();
    const id = await addSite({ name: `${word} Pet Clinic` });
    const result = await upload(csv(`${word} PET CLINIC,Veterinary Care,,,,,,63101,,`, `${word} Pet Clinic,Veterinary Care,,,,,,10001,,`));
    expect(result.result!.counts).toEqual({ created: 1, updated: 1, skipped: 0, error: 0 });
    expect(await siteRow(id)).toMatchObject({ name: `${word} PET CLINIC`, email: 'front.desk@example.org', receivesAlerts: true });
  });

  it('updates a site listed under the same e-mail at the same ZIP, audited before and after', async () => {
    const word = tag();
    const id = await addSite({ name: `${word} Old Name`, email: `${word}@example.org` });
    const result = await upload(csv(`${word} New Name,Emergency Vet,${word}@example.org,,,,,63101,,no`));
    expect(result.result!.counts.updated).toBe(1);
    expect(await siteRow(id)).toMatchObject({ name: `${word} New Name`, practiceType: 'Emergency Vet', receivesAlerts: false, source: 'admin', phoneNumber: '+13145550142' });
    const entry = (await auditOf(id)).find((e) => e.action === 'import-update')!;
    expect(entry.before).toMatchObject({ name: `${word} Old Name` });
    expect(entry.after).toMatchObject({ name: `${word} New Name` });
  });

  it('completes a website written without http:// to https://, as the form does, and matches it on the next import', async () => {
    const [word, bad] = [tag(), tag()];
    const file = csv(`${word} Rescue,Rescue,,,,,,63101,www.${word.toLowerCase()}.org,no`, `${bad} Rescue,Rescue,,,,,,63101,not a website,no`);
    const first = await upload(file);
    expect(resultRows(first.result!).map((r) => [r.status, r.reason])).toEqual([
      ['created', ''],
      ['error', messages.siteUrlInvalid],
    ]);
    const [row] = await ctx.database.db.select().from(sites).where(eq(sites.name, `${word} Rescue`));
    expect(row!.url).toBe(`https://www.${word.toLowerCase()}.org`);
    expect((await upload(file)).result!.counts).toMatchObject({ created: 0, updated: 0, skipped: 1 });
  });

  it('writes a cell a spreadsheet would run as a formula as text in the result', async () => {
    const word = tag();
    const result = await upload(csv(`"=HYPERLINK(""http://evil.example"",""${word}"")",Rescue,,+1 314 555 0142,@SUM(1),-2,,63101,,no`));
    const [row] = resultRows(result.result!);
    expect(row!.name).toBe(`'=HYPERLINK("http://evil.example","${word}")`);
    expect(row!.phoneNumber).toBe("'+1 314 555 0142");
    expect(row!.address1).toBe("'@SUM(1)");
    expect(row!.city).toBe("'-2");
    expect(row!.status).toBe('created');
  });

  it('reads a file with a byte-order mark, columns in another order and case, and Windows-1252 text', async () => {
    const word = tag();
    const bom = await upload(`\ufeffZipCode,Name,Kind\r\n63101,${word} Café Vets,Groomer/Boarding\r\n`);
    expect(bom.status, bom.errors.join()).toBe(200);
    expect(bom.result!.counts.created).toBe(1);
    expect(resultRows(bom.result!)[0]).toMatchObject({ name: `${word} Café Vets`, kind: 'Groomer/Boarding', email: '' });
    const latin = await upload(Buffer.from(`name,kind,zipCode\r\n${word} Crème Rescue,Rescue,63101\r\n`, 'latin1'));
    expect(latin.result!.counts.created).toBe(1);
    expect(await ctx.database.db.$count(sites, eq(sites.name, `${word} Crème Rescue`))).toBe(1);
  });

  it('takes the template the screen offers for download, every row of it', async () => {
    const template = readFileSync(new URL('../../web/public/templates/sites-import-template.csv', import.meta.url));
    expect(template.toString('utf8').split('\r\n')[0]).toBe(header);
    const result = await upload(template);
    expect(result.status, result.errors.join()).toBe(200);
    expect(result.result!.counts).toEqual({ created: 2, updated: 0, skipped: 0, error: 0 });
  });

  it('refuses a missing, empty, binary or unreadable file and one without rows or columns', async () => {
    const before = await ctx.database.db.$count(sites);
    const refusals: [string | Buffer | null, string][] = [
      [null, messages.csvFileRequired],
      ['', messages.csvFileRequired],
      [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]), messages.csvUnreadable],
      ['Dear team,\nplease find the list attached.\n', messages.csvUnreadable],
      ['name,kind,zipCode\n"unclosed,Rescue,63101\n', messages.csvUnreadable],
      ['name,email\nSome Vet,a@example.org\n', messages.csvColumnsMissing],
      [`${header}\r\n`, messages.csvNoRows],
    ];
    for (const [content, message] of refusals) {
      const refused = await upload(content);
      expect(refused.status, message).toBe(400);
      expect(refused.errors).toEqual([message]);
    }
    const json = await call(ctx.app, 'POST', 'admin/sites/import', { token: admin.token, body: { file: header } });
    expect(json.status).toBe(400);
    expect(json.body.errors).toEqual([messages.csvFileRequired]);
    expect(await ctx.database.db.$count(sites)).toBe(before);
  });

  it('refuses a file over the size limit, and one with too many rows', async () => {
    const large = await upload(Buffer.alloc(siteImportLimits.maxFileBytes + 1, 'a'));
    expect(large.status).toBe(413);
    expect(large.errors).toEqual([messages.csvTooLarge]);
    const many = await upload(csv(...Array.from({ length: siteImportLimits.maxRows + 1 }, (_, i) => `Vet ${i},Rescue,,,,,,63101,,no`)));
    expect(many.status).toBe(400);
    expect(many.errors).toEqual([messages.csvTooManyRows]);
  });
});

describe('POST admin/sites/remove-samples', () => {
  it('switches off every active sample site, and nothing else, audited', async () => {
    const word = tag();
    const samples = await ctx.database.db
      .insert(sites)
      .values([1, 2, 3].map((i) => ({ name: `${word} Sample Vet ${i}`, zipCode: '63101', source: 'sample', email: `sample${i}@example.org`, receivesAlerts: true })))
      .returning({ id: sites.id });
    const kept = await addSite({ name: `${word} Real Vet` });

    const removed = await call<RemovedSamples>(ctx.app, 'POST', 'admin/sites/remove-samples', { token: admin.token });
    expect(removed.status).toBe(200);
    expect(removed.body.result!.removed).toBeGreaterThanOrEqual(3);
    const rows = await ctx.database.db.select().from(sites).where(like(sites.name, `${word}%`));
    expect(rows.filter((s) => s.source === 'sample').every((s) => !s.isActive && !s.receivesAlerts)).toBe(true);
    expect(rows).toHaveLength(4);
    expect(rows.find((s) => s.id === kept)).toMatchObject({ isActive: true, receivesAlerts: true });
    expect(await ctx.database.db.$count(sites, and(eq(sites.source, 'sample'), eq(sites.isActive, true)))).toBe(0);

    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.action, 'remove-samples'));
    expect(entry).toMatchObject({ actorUserId: admin.user.id, entity: 'site', entityId: 'sample' });
    expect((entry!.after as { siteIds: number[] }).siteIds).toEqual(expect.arrayContaining(samples.map((s) => s.id)));

    const again = await call<RemovedSamples>(ctx.app, 'POST', 'admin/sites/remove-samples', { token: admin.token });
    expect(again.body.result).toEqual({ removed: 0 });
    const listed = await call<AdminSitesPage>(ctx.app, 'GET', `admin/sites?query=${word}&filter=sample`, { token: admin.token });
    expect(listed.body.result).toMatchObject({ total: 3, activeSamples: 0 });
    expect(listed.body.result!.items.every((item) => !item.isActive && !item.receivesAlerts)).toBe(true);
  });

  it('keeps an owner’s sample vet: the pet’s vets and Vet’s Number still show it; vet search and alerts leave it out', async () => {
    const word = tag();
    const sample = await siteNear('63101', 2, { name: `${word} Sample Veterinary Clinic`, source: 'sample', phoneNumber: '+18005550142' });
    const nearby = await siteNear('63101', 3);
    const { token, pet } = await ownerWithLostPet({ shareContactInfo: true });
    await ctx.database.db.update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
    const search = async () => (await call<SiteSearchPage>(ctx.app, 'GET', `site/search?query=${word}`, { token })).body.result!.results;
    expect((await search()).map((found) => found.name)).toEqual([sample.name]);
    const linked = await call(ctx.app, 'POST', 'site/add-site-to-pets', { token, body: { siteId: sample.id, petIds: [pet.id] } });
    expect(linked.status).toBe(200);

    expect((await call(ctx.app, 'POST', 'admin/sites/remove-samples', { token: admin.token })).status).toBe(200);

    const ofPet = await call<Site[]>(ctx.app, 'GET', `site/sites-for-pet/${pet.id}`, { token });
    expect(ofPet.body.result!.map((vet) => [vet.id, vet.phoneNumber, vet.isActive])).toEqual([[sample.id, '+18005550142', false]]);
    expect((await call<Site[]>(ctx.app, 'GET', 'site/for-user', { token })).body.result!.map((vet) => vet.id)).toEqual([sample.id]);
    expect(await search()).toEqual([]);

    const alert = await sendAndPay(token, pet.id);
    const recipients = await recipientsOf(alert.id);
    expect(recipients).toContain(nearby.email);
    expect(recipients).not.toContain(sample.email);

    const profile = await call<PublicProfile>(ctx.app, 'GET', `pet/pet-profiles/${pet.publicId}`);
    expect(profile.body.result!.sites).toEqual([{ id: sample.id, googlePlaceId: null, phoneNumber: '+18005550142' }]);
  });
});
