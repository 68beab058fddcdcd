import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { HealthCheck, LegalDocument, NamedItem, PublicSettings, StaticData, UserState } from '@petreg/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp({ env: { GOOGLE_CLIENT_ID: 'client-1.apps.googleusercontent.com' } });
});
afterAll(() => ctx.close());

describe('utilities', () => {
  it('static-data lists species and microchip brands', async () => {
    const { status, body } = await call<StaticData>(ctx.app, 'GET', 'utilities/static-data');
    expect(status).toBe(200);
    expect(body.result!.species.map((s) => s.name)).toEqual(expect.arrayContaining(['Dog', 'Cat', 'Bird', 'Rabbit', 'Horse']));
    expect(body.result!.brands.map((b) => b.name)).toEqual(
      expect.arrayContaining(['AVID', 'HomeAgain', '24PetWatch', 'AKC Reunite', 'PetLink/Datamars', 'Save This Life', 'Bayer ResQ', 'Trovan', 'Destron Fearing', 'Other...']),
    );
  });

  it('static-data carries a weak ETag (its bytes differ by compression) and a short max-age, and answers 304 with no body to a client holding it', async () => {
    const first = await ctx.app.inject({ method: 'GET', url: '/api/v2/utilities/static-data' });
    const etag = first.headers.etag as string;
    expect(etag).toMatch(/^W\/"[\w-]{32}"$/);
    expect(first.headers['cache-control']).toBe('public, max-age=300');
    expect(first.headers.vary).toMatch(/accept-encoding/i);
    expect(first.headers['content-type']).toBe('application/json; charset=utf-8');
    const again = await ctx.app.inject({ method: 'GET', url: '/api/v2/utilities/static-data' });
    expect(again.body).toBe(first.body);
    expect(again.headers.etag).toBe(etag);

    const strong = etag.slice(2);
    for (const held of [etag, strong, `"other", ${strong}`, '*']) {
      const revalidated = await ctx.app.inject({ method: 'GET', url: '/api/v2/utilities/static-data', headers: { 'if-none-match': held } });
      expect(revalidated.statusCode).toBe(304);
      expect(revalidated.body).toBe('');
      expect(revalidated.headers.etag).toBe(etag);
      expect(revalidated.headers.vary).toMatch(/accept-encoding/i);
    }
    const stale = await ctx.app.inject({ method: 'GET', url: '/api/v2/utilities/static-data', headers: { 'if-none-match': '"other"' } });
    expect(stale.statusCode).toBe(200);
    expect(stale.body).toBe(first.body);
  });

  it('breeds-by-species lists the breeds of that species only', async () => {
    const { body: data } = await call<StaticData>(ctx.app, 'GET', 'utilities/static-data');
    const dog = data.result!.species.find((s) => s.name === 'Dog')!;
    const cat = data.result!.species.find((s) => s.name === 'Cat')!;
    const dogs = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${dog.id}`)).body.result!;
    const cats = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${cat.id}`)).body.result!;
    expect(dogs.map((b) => b.name)).toEqual(expect.arrayContaining(['Labrador Retriever', 'German Shepherd Dog', 'Mixed Breed']));
    expect(cats.map((b) => b.name)).toEqual(expect.arrayContaining(['Maine Coon', 'Domestic Shorthair']));
    expect(dogs.map((b) => b.name)).not.toContain('Maine Coon');
    expect((await call(ctx.app, 'GET', 'utilities/breeds-by-species/abc')).status).toBe(400);
    expect((await call(ctx.app, 'GET', 'utilities/breeds-by-species/99999')).body.result).toEqual([]);
  });

  it('states lists every US state and territory with its country', async () => {
    const { body } = await call<UserState[]>(ctx.app, 'GET', 'utilities/states');
    const states = body.result!;
    expect(states.length).toBeGreaterThanOrEqual(56);
    expect(states).toContainEqual(expect.objectContaining({ name: 'California', abbreviation: 'CA', countryAbbreviation: 'US' }));
    expect(states).toContainEqual(expect.objectContaining({ name: 'Puerto Rico', abbreviation: 'PR' }));
  });

  it('settings says which sign-in providers are configured', async () => {
    const { body } = await call<PublicSettings>(ctx.app, 'GET', 'utilities/settings');
    expect(body.result).toMatchObject({
      enableQRcodeUpsell: true,
      socialSignIn: { googleClientId: 'client-1.apps.googleusercontent.com', facebookAppId: null },
      support: { phone: '(800) 555-0142', phoneHref: 'tel:+18005550142', address: '100 Main Street, Suite 200, Springfield, IL 62701' },
    });
  });

  it("settings give the maps OpenStreetMap's tiles and credit, which the page's policy lets load", async () => {
    const answer = await ctx.app.inject({ method: 'GET', url: '/api/v2/utilities/settings' });
    expect(answer.json().result.mapTiles).toEqual({
      url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
      attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
    });
    const page = await ctx.app.inject({ method: 'GET', url: '/client/alerts' });
    expect(page.headers['content-security-policy']).toMatch(/img-src [^;]*https:\/\/tile\.openstreetmap\.org/);
  });

  it("settings give an operator's tile server (MAP_TILE_URL) and credit, which the page's policy lets load even without TLS", async () => {
    const configured = await createTestApp({
      env: { MAP_TILE_URL: 'http://{s}.tiles.example.net/osm/{z}/{x}/{y}.png', MAP_TILE_ATTRIBUTION: 'Tiles by Example', GOOGLE_MAPS_API_KEY: 'a-key' },
    });
    const answer = await configured.app.inject({ method: 'GET', url: '/api/v2/utilities/settings' });
    expect(answer.json().result.mapTiles).toEqual({ url: 'http://{s}.tiles.example.net/osm/{z}/{x}/{y}.png', attribution: 'Tiles by Example' });
    const page = await configured.app.inject({ method: 'GET', url: '/client/alerts' });
    expect(page.headers['content-security-policy']).toMatch(/img-src [^;]*http:\/\/\*\.tiles\.example\.net[ ;]/);
    // The operator's tiles win over Google's: the portal serves none.
    expect((await configured.app.inject({ method: 'GET', url: '/api/v2/site/map-tile/1/0/0' })).statusCode).toBe(404);
    await configured.close();
  });

  it('settings name the home page and blog: the lookup page and no blog unless configured', async () => {
    const { body } = await call<PublicSettings>(ctx.app, 'GET', 'utilities/settings');
    expect(body.result!.support).toMatchObject({ homeUrl: '/microchip-lookup', blogUrl: null });

    const configured = await createTestApp({ env: { HOME_URL: 'https://www.example.org/', BLOG_URL: 'https://www.example.org/blog' } });
    const settings = (await call<PublicSettings>(configured.app, 'GET', 'utilities/settings')).body.result!;
    expect(settings.support).toMatchObject({ homeUrl: 'https://www.example.org/', blogUrl: 'https://www.example.org/blog' });
    await configured.close();
  });

  it('legal serves the shipped privacy and terms templates, to anyone', async () => {
    const privacy = await call<LegalDocument>(ctx.app, 'GET', 'utilities/legal/privacy');
    expect(privacy.status).toBe(200);
    expect(privacy.body.result).toMatchObject({ title: 'Privacy Policy', text: expect.stringMatching(/^# Privacy Policy\n\nTEMPLATE:/) });
    const terms = await call<LegalDocument>(ctx.app, 'GET', 'utilities/legal/terms');
    expect(terms.body.result).toMatchObject({ title: 'Terms of Service', text: expect.stringContaining('## Protection plans and payment') });
    expect((await call(ctx.app, 'GET', 'utilities/legal/cookies')).status).toBe(400);
  });

  it("legal serves the operator's files: PRIVACY_FILE / TERMS_FILE first, then DATA_DIR", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petreg-legal-'));
    writeFileSync(join(dataDir, 'terms.md'), '# Our terms\n\nBe kind.\n');
    const ownPrivacy = join(dataDir, 'policy.txt');
    writeFileSync(ownPrivacy, 'We keep nothing.\n');
    const operated = await createTestApp({ env: { DATA_DIR: dataDir, PRIVACY_FILE: ownPrivacy } });
    expect((await call<LegalDocument>(operated.app, 'GET', 'utilities/legal/terms')).body.result!.text).toBe('# Our terms\n\nBe kind.\n');
    expect((await call<LegalDocument>(operated.app, 'GET', 'utilities/legal/privacy')).body.result!.text).toBe('We keep nothing.\n');
    // Edited while running: the next request reads the new text.
    writeFileSync(ownPrivacy, 'Changed.\n');
    expect((await call<LegalDocument>(operated.app, 'GET', 'utilities/legal/privacy')).body.result!.text).toBe('Changed.\n');
    await operated.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('health-check says the database answers, and not when it is closed', async () => {
    const { status, body } = await call<HealthCheck>(ctx.app, 'GET', 'utilities/health-check');
    expect(status).toBe(200);
    expect(body.result).toEqual({ status: 'Healthy', database: true });

    const broken = await createTestApp();
    await broken.database.close();
    const down = await call<HealthCheck>(broken.app, 'GET', 'utilities/health-check');
    expect(down.status).toBe(503);
    expect(down.body.result).toEqual({ status: 'Unhealthy', database: false });
    await broken.app.close();
  });

  it('serves an OpenAPI document generated from the schemas', async () => {
    const response = await ctx.app.inject({ method: 'GET', url: '/api/v2/openapi.json' });
    expect(response.statusCode).toBe(200);
    const doc = response.json();
    expect(doc.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v2/Users/signup', '/api/v2/Users/login', '/api/v2/utilities/static-data']));
    const signUpBody = doc.paths['/api/v2/Users/signup'].post.requestBody.content['application/json'].schema;
    expect(signUpBody.required).toEqual(expect.arrayContaining(['firstName', 'lastName', 'email', 'phoneNumber', 'password']));
  });
});
