import { messages, type AdminSitesPage, type AuthResult, type NamedItem, type StaticData } from '@petreg/contract';
import { and, eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { alertDailyCounts, alertEmails, alertPreferences, emailUnsubscribes, petAlerts, sites } from '../src/db/schema.js';
import { findZip } from '../src/geography.js';
import { writeAlertRecipients } from '../src/modules/alerts/recipients.js';
import { localDate } from '../src/modules/alerts/localTime.js';
import { preferencesToken } from '../src/modules/alerts/preferences.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { sendDueAlertEmails } from '../src/worker/alertEmails.js';
import { alertKit, alertMailSettings as settings } from './alertKit.js';
import { call, createTestApp, readOutbox, type TestContext } from './helpers.js';

let ctx: TestContext;
let admin: AuthResult;
let cat: { id: number; breed: NamedItem };
let speciesCount: number;
const { siteNear, ownerWithLostPet, sendAndPay, sendAlert, payCheckout, recipientsOf } = alertKit(() => ctx);
const db = () => ctx.database.db;

beforeAll(async () => {
  ctx = await createTestApp();
  await ensureAdministrator(db(), { email: 'root@example.com', password: 'Admin#Pass1' });
  admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
  const data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
  speciesCount = data.species.length;
  const catId = data.species.find((s) => s.name === 'Cat')!.id;
  const breed = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${catId}`)).body.result![0]!;
  cat = { id: catId, breed };
});
afterAll(() => ctx.close());

const DAY_MS = 86_400_000;
/** Today and other days as a site without a state counts them (UTC). */
const day = (offset = 0) => localDate(new Date(Date.now() + offset * DAY_MS), null);

/** The page of an alert e-mail's preferences link, the link signed as the worker signs it. */
async function linkOf(alertId: number, email: string) {
  const [row] = await db().select().from(alertEmails).where(and(eq(alertEmails.alertId, alertId), eq(alertEmails.recipient, email)));
  return `/api/v2/email/preferences/${preferencesToken(settings.secret, row!)}`;
}

const form = (fields: Record<string, string | string[]>) =>
  new URLSearchParams(Object.entries(fields).flatMap(([name, value]) => [value].flat().map((v) => [name, v]))).toString();

const save = (url: string, fields: Record<string, string | string[]>) =>
  ctx.app.inject({ method: 'POST', url, headers: { 'content-type': 'application/x-www-form-urlencoded' }, payload: form(fields) });

/** A site that got one alert (so holds a link), near `zip`; answers it and its link. */
async function alertedSite(zip: string, milesNorth: number) {
  const site = await siteNear(zip, milesNorth);
  const { token, pet } = await ownerWithLostPet();
  const alert = await sendAndPay(token, pet.id, { zipCode: zip });
  return { site, link: await linkOf(alert.id, site.email!) };
}

const catAlert = async (zip: string) => {
  const { token, pet } = await ownerWithLostPet({ speciesId: cat.id, breeds: [cat.breed] });
  return sendAndPay(token, pet.id, { zipCode: zip });
};
const dogAlert = async (zip: string) => {
  const { token, pet } = await ownerWithLostPet();
  return sendAndPay(token, pet.id, { zipCode: zip });
};

const choose = (email: string, values: Partial<typeof alertPreferences.$inferInsert>) =>
  db().insert(alertPreferences).values({ email, ...values }).onConflictDoUpdate({ target: alertPreferences.email, set: values });

describe('the preferences link of an alert e-mail', () => {
  it('is in every alert e-mail next to the unsubscribe link, opens a form without sign-in, and the mail log hides it', async () => {
    const site = await siteNear('63101', 3);
    const { token, pet } = await ownerWithLostPet();
    const alert = await sendAndPay(token, pet.id, { zipCode: '63101' });
    const outboxDir = `${ctx.outboxDir}/preferences-link`;
    await sendDueAlertEmails(db(), createMailer({ from: settings.mailFrom, outboxDir }), settings);
    const mail = (await readOutbox(outboxDir)).find((m) => (Array.isArray(m.to) ? m.to[0] : m.to)?.text === site.email)!;
    const link = /Choose which alerts you receive: (\S+)\nUnsubscribe from lost pet alerts: \S+/.exec(mail.text!)![1]!;
    expect(link).toBe(`http://localhost:3000${await linkOf(alert.id, site.email!)}`);
    expect(mail.html).toContain(`<a href="${link}">Choose which alerts you receive</a> &middot; <a href="http://localhost:3000/api/v2/email/unsubscribe/`);

    const page = await ctx.app.inject({ method: 'GET', url: link.replace('http://localhost:3000', '') });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(page.headers['cache-control']).toBe('no-store');
    expect(page.body).toContain('<h1>Lost pet alert preferences</h1>');
    expect(page.body).toContain(`For <strong>${site.email}</strong>`);
    expect(page.body).toContain('<meta name="viewport" content="width=device-width,initial-scale=1">');
    // Every species, each chosen while the address chose nothing; the full radius; no cap, no pause.
    expect(page.body.match(/type="checkbox" name="species" value="\d+" checked>/g)).toHaveLength(speciesCount);
    expect(page.body).toContain('name="radiusMiles" type="number" inputmode="numeric" min="1" max="50" value="50"');
    expect(page.body).toContain('name="dailyCap" type="number" inputmode="numeric" min="1" max="100" value=""');

    const log = await call<{ items: { id: number; queue: string; recipient: string }[] }>(ctx.app, 'GET', `admin/mail?query=${encodeURIComponent(site.email!)}`, {
      token: admin.token,
    });
    const logged = log.body.result!.items.find((item) => item.queue === 'alert')!;
    const opened = await call<{ text: string }>(ctx.app, 'GET', `admin/mail/alert/${logged.id}`, { token: admin.token });
    expect(opened.body.result!.text).toContain('Choose which alerts you receive: http://localhost:3000/api/v2/email/preferences/[hidden]\n');
  });

  it('answers not found for a link the portal did not sign: a changed signature, another row, no signature', async () => {
    const { site, link } = await alertedSite('80202', 2);
    const [id, signature] = link.split('/').at(-1)!.split('.');
    const changed = `${signature!.slice(0, -1)}${signature!.endsWith('A') ? 'B' : 'A'}`;
    for (const token of [`${id}.${changed}`, `${Number(id) + 1}.${signature}`, `${id}`, `${id}.${signature}.x`, `x${id}.${signature}`]) {
      const page = await ctx.app.inject({ method: 'GET', url: `/api/v2/email/preferences/${token}` });
      expect(page.statusCode, token).toBe(404);
      expect(page.body).toContain('Link not recognised');
      const posted = await save(`/api/v2/email/preferences/${token}`, { receive: 'no', radiusMiles: '50' });
      expect(posted.statusCode, token).toBe(404);
    }
    expect(await db().select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, site.email!))).toEqual([]);
  });

  it('saves the choices; every species chosen is kept as every species', async () => {
    const { site, link } = await alertedSite('85004', 2);
    const saved = await save(link, { receive: 'yes', species: String(cat.id), radiusMiles: '10', dailyCap: '1', pausedUntil: day(3) });
    expect(saved.statusCode).toBe(200);
    expect(saved.body).toContain(messages.alertPreferencesSaved);
    expect(saved.body).toContain(`value="${cat.id}" checked>Cat`);
    expect(saved.body).toContain('max="50" value="10"');
    const [stored] = await db().select().from(alertPreferences).where(eq(alertPreferences.email, site.email!));
    expect(stored).toMatchObject({ speciesIds: [cat.id], radiusMiles: 10, dailyCap: 1, pausedUntil: day(3) });

    const every = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!.species.map((s) => String(s.id));
    expect((await save(link, { receive: 'yes', species: every, radiusMiles: ' 50 ', dailyCap: '', pausedUntil: '' })).statusCode).toBe(200);
    const [again] = await db().select().from(alertPreferences).where(eq(alertPreferences.email, site.email!));
    expect(again).toMatchObject({ speciesIds: null, radiusMiles: 50, dailyCap: null, pausedUntil: null });
  });

  it('unsubscribes with "no", whatever else the form says, and "yes" subscribes the address again', async () => {
    const { site, link } = await alertedSite('97201', 2);
    const neighbour = await siteNear('97201', 4);
    const off = await save(link, { receive: 'no', radiusMiles: 'many' });
    expect(off.statusCode).toBe(200);
    expect(off.body).toContain('You are unsubscribed: We send no lost pet alerts to this address.');
    expect(await db().select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, site.email!))).toHaveLength(1);
    expect(await recipientsOf((await dogAlert('97201')).id)).toEqual([neighbour.email]);

    const on = await save(link, { receive: 'yes', species: String(cat.id), radiusMiles: '50' });
    expect(on.statusCode).toBe(200);
    expect(await db().select().from(emailUnsubscribes).where(eq(emailUnsubscribes.email, site.email!))).toEqual([]);
    expect(await recipientsOf((await catAlert('97201')).id)).toEqual([site.email, neighbour.email].sort());
  });

  it('refuses each wrong value with its message, keeps what was typed and changes nothing', async () => {
    const { site, link } = await alertedSite('33101', 2);
    const cases: [Record<string, string | string[]>, keyof typeof messages][] = [
      [{ receive: 'yes', radiusMiles: '10' }, 'alertPreferencesSpeciesRequired'],
      [{ receive: 'yes', species: '999999', radiusMiles: '10' }, 'invalidRequest'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '0' }, 'alertPreferencesRadiusInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '51' }, 'alertPreferencesRadiusInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '' }, 'alertPreferencesRadiusInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '2.5' }, 'alertPreferencesRadiusInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', dailyCap: '0' }, 'alertPreferencesCapInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', dailyCap: '101' }, 'alertPreferencesCapInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', dailyCap: 'x' }, 'alertPreferencesCapInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', pausedUntil: '2027-02-30' }, 'alertPreferencesPauseInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', pausedUntil: '12/01/2027' }, 'alertPreferencesPauseInvalid'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', pausedUntil: day(0) }, 'alertPreferencesPausePast'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', pausedUntil: day(-2) }, 'alertPreferencesPausePast'],
      [{ receive: 'yes', species: String(cat.id), radiusMiles: '10', pausedUntil: day(366) }, 'alertPreferencesPauseTooFar'],
      [{ receive: 'maybe', species: String(cat.id), radiusMiles: '10' }, 'invalidRequest'],
    ];
    for (const [fields, message] of cases) {
      const answer = await save(link, fields);
      expect(answer.statusCode, JSON.stringify(fields)).toBe(400);
      expect(answer.body, JSON.stringify(fields)).toContain(`<p class="error"`);
      expect(answer.body, JSON.stringify(fields)).toContain(`${messages[message]}</p>`);
    }
    // Every message at once, each under its field, what was typed shown again.
    const all = await save(link, { receive: 'yes', radiusMiles: '80', dailyCap: '0', pausedUntil: 'soon' });
    for (const message of ['alertPreferencesSpeciesRequired', 'alertPreferencesRadiusInvalid', 'alertPreferencesCapInvalid', 'alertPreferencesPauseInvalid'] as const) {
      expect(all.body).toContain(messages[message]);
    }
    expect(all.body).toContain('value="80" aria-invalid="true" aria-describedby="radiusMiles-error"');
    expect(all.body).toContain('value="soon" aria-invalid="true"');
    // The last of a year is allowed.
    expect((await save(link, { receive: 'yes', species: String(cat.id), radiusMiles: '10', pausedUntil: day(365) })).statusCode).toBe(200);
    await db().delete(alertPreferences).where(eq(alertPreferences.email, site.email!));
    expect((await save(link, { receive: 'yes', species: String(cat.id), radiusMiles: '10', dailyCap: '101' })).statusCode).toBe(400);
    expect(await db().select().from(alertPreferences).where(eq(alertPreferences.email, site.email!))).toEqual([]);
  });
});

describe('the fan-out honours each address\'s preferences', () => {
  it('a site that wants only cats gets cat alerts, not dog alerts', async () => {
    const catsOnly = await siteNear('55401', 3);
    const everything = await siteNear('55401', 4);
    await choose(catsOnly.email!, { speciesIds: [cat.id] });
    expect(await recipientsOf((await dogAlert('55401')).id)).toEqual([everything.email]);
    expect(await recipientsOf((await catAlert('55401')).id)).toEqual([catsOnly.email, everything.email].sort());
  });

  it('a site with a 10-mile radius gets none from 20 miles, and one from 5', async () => {
    const tenMiles = await siteNear('37201', 20);
    const fullRadius = await siteNear('37201', 21);
    await choose(tenMiles.email!, { radiusMiles: 10 });
    expect(await recipientsOf((await dogAlert('37201')).id)).toEqual([fullRadius.email]);
    // An address given by two sites is reached through the one within its radius.
    const nearer = await siteNear('37201', 5, { email: tenMiles.email });
    const both = await recipientsOf((await dogAlert('37201')).id);
    expect(both).toEqual([tenMiles.email, fullRadius.email].sort());
    const [row] = await db().select().from(alertEmails).where(eq(alertEmails.recipient, tenMiles.email!));
    expect(row!.siteId).toBe(nearer.id);
  });

  it('a site capped at 1 a day gets the first alert and not the second that day; it counts anew the next day', async () => {
    const capped = await siteNear('84101', 2);
    const other = await siteNear('84101', 3);
    await choose(capped.email!, { dailyCap: 1 });
    expect(await recipientsOf((await dogAlert('84101')).id)).toEqual([capped.email, other.email].sort());
    expect(await recipientsOf((await catAlert('84101')).id)).toEqual([other.email]);
    expect(await db().select().from(alertDailyCounts).where(eq(alertDailyCounts.email, capped.email!))).toEqual([{ email: capped.email, day: day(0), sent: 1 }]);
    // Yesterday's count does not hold today's alerts back.
    await db().update(alertDailyCounts).set({ day: day(-1) }).where(eq(alertDailyCounts.email, capped.email!));
    expect(await recipientsOf((await dogAlert('84101')).id)).toEqual([capped.email, other.email].sort());
  });

  it('a second run of the same fan-out writes nothing and counts nothing against the cap', async () => {
    const capped = await siteNear('30303', 2);
    await choose(capped.email!, { dailyCap: 2 });
    const alert = await dogAlert('30303');
    expect(await recipientsOf(alert.id)).toContain(capped.email);
    const [row] = await db().select().from(petAlerts).where(eq(petAlerts.id, alert.id));
    const again = await db().transaction(async (tx) => writeAlertRecipients(tx, row!, (await findZip(tx, row!.zipCode))!, new Date()));
    expect(again).toBe(0);
    expect(await db().select().from(alertDailyCounts).where(eq(alertDailyCounts.email, capped.email!))).toEqual([{ email: capped.email, day: day(0), sent: 1 }]);
  });

  it('counts the cap safely when alerts go out at the same moment', async () => {
    const capped = await siteNear('73102', 2);
    await siteNear('73102', 3);
    await choose(capped.email!, { dailyCap: 2 });
    const owners = await Promise.all([1, 2, 3, 4, 5].map(() => ownerWithLostPet()));
    const checkouts: string[] = [];
    for (const owner of owners) checkouts.push((await sendAlert(owner.token, owner.pet.id, { zipCode: '73102' })).body.result!.location);
    const paid = await Promise.all(owners.map((owner, i) => payCheckout(owner.token, checkouts[i]!)));
    expect(paid.map((p) => p.status)).toEqual([200, 200, 200, 200, 200]);
    expect(await db().select().from(alertEmails).where(eq(alertEmails.recipient, capped.email!))).toHaveLength(2);
    expect((await db().select().from(alertDailyCounts).where(eq(alertDailyCounts.email, capped.email!)))[0]!.sent).toBe(2);
  });

  it('a paused site gets none until the date, then gets them again', async () => {
    const paused = await siteNear('68102', 2);
    const other = await siteNear('68102', 3);
    await choose(paused.email!, { pausedUntil: day(1) });
    expect(await recipientsOf((await dogAlert('68102')).id)).toEqual([other.email]);
    await choose(paused.email!, { pausedUntil: day(0) });
    expect(await recipientsOf((await dogAlert('68102')).id)).toEqual([paused.email, other.email].sort());
  });

  it('counts only the sites an alert would reach before it is sent: nobody left is "reaches nobody"', async () => {
    const only = await siteNear('46204', 2);
    await choose(only.email!, { speciesIds: [cat.id] });
    const { token, pet } = await ownerWithLostPet();
    const refused = await sendAlert(token, pet.id, { zipCode: '46204' });
    expect([refused.status, refused.body.errors]).toEqual([400, [messages.alertReachesNobody]]);
  });
});

describe('the administrators\' Sites screen', () => {
  it('shows each site\'s preferences, bounces and last alert; the unsubscribed filter', async () => {
    const { site, link } = await alertedSite('27601', 2);
    await save(link, { receive: 'yes', species: String(cat.id), radiusMiles: '15', dailyCap: '3', pausedUntil: day(10) });
    await sendDueAlertEmails(db(), createMailer({ from: settings.mailFrom, outboxDir: `${ctx.outboxDir}/admin` }), settings);
    const [row] = await db().select().from(alertEmails).where(eq(alertEmails.recipient, site.email!));
    await db().insert(alertEmails).values({ alertId: row!.alertId, kind: 'found', siteId: site.id, recipient: site.email!, status: 'bounced' });
    const quiet = await siteNear('27601', 40);

    const list = async (filter: string) =>
      (await call<AdminSitesPage>(ctx.app, 'GET', `admin/sites?query=${encodeURIComponent('@vets.example')}&filter=${filter}`, { token: admin.token })).body.result!.items;
    const shown = (await list('all')).find((s) => s.id === site.id)!;
    expect(shown.alertPreferences).toEqual({ species: ['Cat'], radiusMiles: 15, dailyCap: 3, pausedUntil: day(10) });
    expect(shown.bounces).toBe(1);
    expect(shown.lastAlertAt).toBe(row!.deliveredAt!.toISOString());
    const other = (await list('all')).find((s) => s.id === quiet.id)!;
    expect(other).toMatchObject({ alertPreferences: null, bounces: 0, lastAlertAt: null, unsubscribed: false });

    await save(link, { receive: 'no' });
    expect((await list('unsubscribed')).map((s) => s.id)).toContain(site.id);
    expect((await list('unsubscribed')).map((s) => s.id)).not.toContain(quiet.id);
    await db().update(sites).set({ isActive: false }).where(eq(sites.id, quiet.id));
    expect((await list('inactive')).map((s) => s.id)).toEqual([quiet.id]);
  });
});
