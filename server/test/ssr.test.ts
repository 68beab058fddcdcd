import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { type CreatedPet, type FinderPageRenderer, type StaticData } from '@petreg/contract';
import { eq, sql } from 'drizzle-orm';
import sharp from 'sharp';
import { brotliCompressSync, brotliDecompressSync, constants as zlib, gunzipSync } from 'node:zlib';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { pets } from '../src/db/schema.js';
import { call, createTestApp, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

let ctx: TestContext;
let webRoot: string;
let dog: number;
let brand: number;

/** The web app's server entry from source, as its build (web/dist-ssr) serves the portal. A path the server's typecheck does not follow (it is the web app's TSX). */
const serverEntry = '../../web/src/ssr.tsx';

beforeAll(async () => {
  // The pages' frames, as the web build writes them: the source finder.html and index.html have the same placeholders.
  webRoot = mkdtempSync(join(tmpdir(), 'petreg-ssr-'));
  for (const frame of ['index.html', 'finder.html']) copyFileSync(join(import.meta.dirname, '../../web', frame), join(webRoot, frame));
  const { renderFinderPage } = (await import(serverEntry)) as { renderFinderPage: FinderPageRenderer };
  ctx = await createTestApp({ webRoot, finderPages: renderFinderPage });
  const data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
  dog = data.species.find((s) => s.name === 'Dog')!.id;
  brand = data.brands.find((b) => b.name === 'HomeAgain')!.id;
});
afterAll(async () => {
  await ctx.close();
  rmSync(webRoot, { recursive: true, force: true });
});

async function ownerWithPet(name = 'Biscuit', shareContactInfo = true) {
  const owner = await signUpOwner(ctx.app, { firstName: 'Morgan', lastName: 'Quill' });
  const chipId = uniqueChip('985');
  const { status, body } = await call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', {
    token: owner.token,
    body: { name, chipId, confirmChip: chipId, chipTypeId: brand, speciesId: dog, shareContactInfo },
  });
  if (status !== 200) throw new Error(`create-pet failed: ${body.errors.join(', ')}`);
  return { owner, pet: body.result!.pet };
}

const reportMissing = (petId: number) =>
  ctx.database.db.update(pets).set({ missingDate: new Date('2024-01-01T15:00:00Z'), zipCode: '78701' }).where(eq(pets.id, petId));

const page = (url: string, headers: Record<string, string> = {}, ip = '127.0.0.1') =>
  ctx.app.inject({ method: 'GET', url, headers, remoteAddress: ip });

/** Every script of the page either loads a file or is the JSON data block: nothing inline for the CSP to allow. */
function expectNoInlineScript(html: string) {
  for (const [tag] of html.matchAll(/<script\b[^>]*>/g)) expect(tag).toMatch(/\bsrc="|type="application\/json"/);
}

describe('GET pet-profiles/{id} (rendered on the server)', () => {
  it("holds a lost pet's name, the owner's call link, Reach the owner and the critical CSS", async () => {
    const { pet } = await ownerWithPet('Pepper');
    await reportMissing(pet.id);

    const response = await page(`/pet-profiles/${pet.publicId}`);
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8');
    const html = response.body;
    expect(html).toMatch(/<h1[^>]*id="pet-name"[^>]*>Pepper<\/h1>/);
    expect(html).toContain('Last Seen in Austin, TX 78701, USA');
    expect(html).toMatch(/<a[^>]*href="tel:\+14155552671"[^>]*>.*?Call the owner<\/a>/);
    expect(html).toMatch(new RegExp(`<a[^>]*href="/found\\?pet=${pet.publicId}"[^>]*>.*?Reach the owner</a>`));
    // Emotion's critical CSS: the rules of the classes the markup uses, in the head.
    const [, styled] = /<style data-emotion="css ([^"]+)">/.exec(html) ?? [];
    expect(styled).toBeDefined();
    const firstClass = /class="[^"]*\bcss-([a-z0-9]+)\b/.exec(html)![1]!;
    expect(styled!.split(' ')).toContain(firstClass);
    expect(html.indexOf('<style data-emotion')).toBeLessThan(html.indexOf('</head>'));
    expect(html).not.toContain('You need to enable JavaScript');
    expectNoInlineScript(html);
    expect(response.headers['content-security-policy']).toMatch(/script-src 'self'[^;]*;/);
    expect(response.headers['content-security-policy']).not.toMatch(/script-src[^;]*unsafe-inline/);
  });

  it('says an unknown or malformed profile is not found, with the lookup', async () => {
    for (const id of ['00000000-0000-4000-8000-000000000000', 'not-a-profile']) {
      const response = await page(`/pet-profiles/${id}`);
      expect(response.statusCode).toBe(404);
      expect(response.body).toContain('We couldn&#x27;t find this pet profile');
      expect(response.body).toContain('Microchip Number');
    }
  });

  it("escapes a pet's name everywhere it goes, markup and hydration data", async () => {
    const name = "</script><script>alert(1)</script>$'";
    const { pet } = await ownerWithPet(name);
    const html = (await page(`/pet-profiles/${pet.publicId}`)).body;
    expect(html).not.toContain('<script>alert(1)');
    expect(html).toContain('&lt;/script&gt;&lt;script&gt;alert(1)&lt;/script&gt;$&#x27;');
    expect(html).toContain('\\u003c/script>\\u003cscript>alert(1)\\u003c/script>$\'');
    // The data block parses back to the name as typed.
    const state = /<script type="application\/json" id="finder-page-state">(.*?)<\/script>/s.exec(html)![1]!;
    expect(JSON.stringify(JSON.parse(state))).toContain(JSON.stringify(name).slice(1, -1));
    expectNoInlineScript(html);
  });

  it("shows nothing of the owner that the profile does not: safe at home, or lost without sharing", async () => {
    for (const [missing, shares] of [[false, true], [true, false]] as const) {
      const { owner, pet } = await ownerWithPet('Hazel', shares);
      if (missing) await reportMissing(pet.id);
      const html = (await page(`/pet-profiles/${pet.publicId}`)).body;
      expect(html).toContain('Hazel');
      expect(html).toContain(`/found?pet=${pet.publicId}`);
      for (const hidden of [owner.input.email, '4155552671', '555-2671', 'tel:+1415', 'userId']) expect(html).not.toContain(hidden);
      expect(html).not.toContain('Call the owner');
      expect(html).toContain('"email":null,"phone":null');
    }
  });

  it('is made from the remembered profile: no database trip while nothing announced a change', async () => {
    const { pet } = await ownerWithPet('Clover');
    const first = await page(`/pet-profiles/${pet.publicId}`);
    expect(first.body).toContain('Clover');
    // An operator's write with the triggers off: only a page read from the database would show it.
    await ctx.database.db.transaction(async (tx) => {
      await tx.execute(sql`alter table ${pets} disable trigger user`);
      await tx.update(pets).set({ name: 'Renamed' }).where(eq(pets.id, pet.id));
      await tx.execute(sql`alter table ${pets} enable trigger user`);
    });
    const again = await page(`/pet-profiles/${pet.publicId}`, { 'accept-encoding': 'br' });
    expect(again.headers['content-encoding']).toBe('br');
    const plain = await page(`/pet-profiles/${pet.publicId}`);
    expect(plain.body).toBe(first.body);
    expect((await page(`/pet-profiles/${pet.publicId}`, { 'if-none-match': first.headers.etag as string })).statusCode).toBe(304);

    // An announced change shows at once.
    await ctx.database.db.update(pets).set({ name: 'Clover Two' }).where(eq(pets.id, pet.id));
    expect((await page(`/pet-profiles/${pet.publicId}`)).body).toContain('Clover Two');
  });

  it('compresses a page made for one answer (unknown id, another letter case) cheaply, in the encoding the client takes', async () => {
    const { pet } = await ownerWithPet('Sorrel');
    // The hydration data holds the times the answers were read: the rest is the same page.
    const untimed = (html: string) => html.replace(/"\w+At":\d+/g, '');
    const brotliAt = (body: Buffer, quality: number) => brotliCompressSync(body, { params: { [zlib.BROTLI_PARAM_QUALITY]: quality } });
    for (const url of ['/pet-profiles/00000000-0000-4000-8000-00000000abcd', `/pet-profiles/${pet.publicId.toUpperCase()}`]) {
      const plain = await page(url);
      expect(plain.body).toMatch(/Sorrel|We couldn&#x27;t find this pet profile/);
      const br = await page(url, { 'accept-encoding': 'gzip, br' });
      expect(br.statusCode).toBe(plain.statusCode);
      expect(br.headers['content-encoding']).toBe('br');
      const sent = brotliDecompressSync(br.rawPayload);
      expect(untimed(sent.toString())).toBe(untimed(plain.body));
      // Brotli is deterministic: the bytes say the quality (4, not the 9 or 11 of kept and built pages).
      expect(br.rawPayload.equals(brotliAt(sent, 4))).toBe(true);
      expect(brotliAt(sent, 9).equals(brotliAt(sent, 4))).toBe(false);
      const gz = await page(url, { 'accept-encoding': 'gzip' });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(untimed(gunzipSync(gz.rawPayload).toString())).toBe(untimed(plain.body));
      expect(gz.headers.etag).not.toBe(br.headers.etag);
    }
  });

  it('holds the per-address limit of the profile answers', async () => {
    let last = 0;
    for (let i = 0; i < 61; i++) last = (await page('/pet-profiles/00000000-0000-4000-8000-000000000001', {}, '10.9.8.7')).statusCode;
    expect(last).toBe(429);
  });
});

describe('the profile photo', () => {
  it('comes as square copies sized for the card, named in the page with its size and fetched first', async () => {
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#b07a42' } }).jpeg().toBuffer();
    const owner = await signUpOwner(ctx.app);
    const chipId = uniqueChip('985');
    const created = await call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', {
      token: owner.token,
      body: { name: 'Maple', chipId, confirmChip: chipId, chipTypeId: brand, speciesId: dog, image: `data:image/jpeg;base64,${photo.toString('base64')}` },
    });
    const { publicId } = created.body.result!.pet;
    const html = (await page(`/pet-profiles/${publicId}`)).body;
    const [, src] = /<img[^>]*src="([^"]+\?size=288)"[^>]*>/.exec(html)!;
    const img = /<img[^>]*\?size=288[^>]*>/.exec(html)![0];
    expect(img).toMatch(/width="144"/);
    expect(img).toMatch(/height="144"/);
    expect(img).toMatch(/fetchPriority="high"/i);
    expect(img).toContain('?size=432 3x');

    const copy = await ctx.app.inject({ method: 'GET', url: src! });
    expect(copy.statusCode).toBe(200);
    expect(copy.headers['content-type']).toBe('image/jpeg');
    expect(await sharp(copy.rawPayload).metadata()).toMatchObject({ width: 288, height: 288, format: 'jpeg' });
    expect((await ctx.app.inject({ method: 'GET', url: src!.replace('size=288', 'size=1000') })).statusCode).toBe(400);
  });
});

describe('GET short/{code} and microchip-lookup (rendered on the server)', () => {
  it("shows a short link's pet with Reach the owner; an unknown code shows the lookup saying Invalid Short URL", async () => {
    const { pet } = await ownerWithPet('Juniper');
    const found = await page(`/short/${pet.shortId}`);
    expect(found.statusCode).toBe(200);
    expect(found.body).toMatch(/<h1[^>]*>Juniper<\/h1>/);
    expect(found.body).toContain(`href="/found?pet=${pet.publicId}"`);

    // A code no link has, and one no link could have (refused before the database is asked).
    for (const code of ['zzzzzzzz', 'not-a-code']) {
      const unknown = await page(`/short/${code}`);
      expect(unknown.statusCode).toBe(404);
      expect(unknown.body).toContain('Invalid Short URL');
      expect(unknown.body).toContain('Microchip Lookup');
    }
  });

  it('answers the lookup page with the support line, the same bytes each time', async () => {
    const response = await page('/microchip-lookup', { 'accept-encoding': 'gzip' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['content-encoding']).toBe('gzip');
    const plain = await page('/microchip-lookup');
    expect(plain.body).toMatch(/<h1[^>]*>Microchip Lookup<\/h1>/);
    expect(plain.body).toMatch(/href="tel:\+1\d{10}"/);
    expectNoInlineScript(plain.body);
    expect((await page('/microchip-lookup')).headers.etag).toBe(plain.headers.etag);
  });
});

describe("the web build's server entry, while it cannot be imported", () => {
  let built: string;
  let broken: TestContext;
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown) => unhandled.push(reason);
  const entry = () => join(built, 'dist-ssr', 'ssr.js');

  beforeAll(async () => {
    process.on('unhandledRejection', onUnhandled);
    // The clock of the look at the built files (once a second).
    vi.useFakeTimers({ toFake: ['performance'] });
    // A build's folders: the page's frame, and an entry that throws as it is imported (a half-written one fails the same way).
    built = mkdtempSync(join(tmpdir(), 'petreg-ssr-broken-'));
    mkdirSync(join(built, 'web'));
    mkdirSync(join(built, 'dist-ssr'));
    for (const frame of ['index.html', 'finder.html']) writeFileSync(join(built, 'web', frame), readFileSync(join(import.meta.dirname, '../../web', frame)));
    writeFileSync(entry(), 'throw new Error("a build under way");\n');
    // The app loads the entry at start, with no request waiting for it: that load fails first, unheard.
    broken = await createTestApp({ webRoot: join(built, 'web') });
    await expect(import(/* @vite-ignore */ `${pathToFileURL(entry()).href}?settled`)).rejects.toThrow('a build under way');
    await new Promise((resolve) => setTimeout(resolve, 100));
  });
  afterAll(async () => {
    vi.useRealTimers();
    process.off('unhandledRejection', onUnhandled);
    await broken.close();
    rmSync(built, { recursive: true, force: true });
  });

  it('leaves the page to the browser with the process up, and renders it on the server once the entry imports', async () => {
    for (let i = 0; i < 2; i++) {
      // Each look imports the entry again: the request waits for an import that fails.
      vi.advanceTimersByTime(1100);
      const response = await broken.app.inject({ method: 'GET', url: '/microchip-lookup' });
      expect(response.statusCode).toBe(200);
      expect(response.body).toContain('You need to enable JavaScript to run this app.');
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(unhandled).toEqual([]);

    writeFileSync(entry(), 'export const renderFinderPage = async (path) => ({ head: "", root: `<main>rendered on the server: ${path}</main>` });\n');
    vi.advanceTimersByTime(1100);
    const fixed = await broken.app.inject({ method: 'GET', url: '/microchip-lookup' });
    expect(fixed.statusCode).toBe(200);
    expect(fixed.body).toContain('<main>rendered on the server: /microchip-lookup</main>');
    expect(fixed.body).not.toContain('You need to enable JavaScript');
  });
});
