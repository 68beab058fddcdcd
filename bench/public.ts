// The public calls (chip lookup, public profile, short link, static data, the lookup page and its
// largest script) measured from outside (bench/outside.ts): the portal as `npm start` runs it, the
// bare Fastify route and the load generator each in a process of its own, 50 connections, each target
// right after the bare route (the page and the script after the bare route sending their bytes). Every
// row has its target and says whether it was met. The portal trusts one proxy hop (TRUST_PROXY=1) with
// the rate-limit allowlist on 127.0.0.1, as the other rows need; one row sends each request from an
// address of its own (X-Forwarded-For), so the per-address counter runs.
// PGlite on a new data directory and, when DATABASE_URL is given, a database created on that server for
// the run and dropped after it. Then a restart on the same data, timed until the first answer.
// Run: npm run bench:public   (BENCH_SECONDS=2 by default, each of BENCH_ROUNDS=7 rounds; BENCH_BUILD=false reuses the last build;
// BENCH_PORTAL_DIR=/another/checkout measures that checkout's build, built beforehand, for a before/after)
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import { get } from 'node:http';
import { loadavg } from 'node:os';
import { join } from 'node:path';
import { API, buildUnlessTold, CONNECTIONS, measureBesideBare, onEachDatabase, printRows, ROOT, ROUNDS, startBare, startPortal, type Target } from './outside.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 2);
const PORTAL_DIR = process.env.BENCH_PORTAL_DIR ?? ROOT;
const BROWSER = { 'accept-encoding': 'br, gzip' };
/** One proxy hop trusted: X-Forwarded-For names the client; requests without it come from 127.0.0.1, allowlisted. */
const PORTAL_ENV = { TRUST_PROXY: '1' };

async function api<T>(origin: string, method: string, path: string, body?: unknown, token?: string): Promise<T> {
  const response = await fetch(`${origin}${API}/${path}`, {
    method,
    headers: { ...(body ? { 'content-type': 'application/json' } : {}), ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const envelope = (await response.json()) as { result: T; errors: string[] };
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${envelope.errors.join(', ')}`);
  return envelope.result;
}

/** An owner's dog with a chip on a paid yearly plan (so the chip is registered), as the owner makes it through the API. */
async function seedRegisteredPet(origin: string) {
  const { token } = await api<{ token: string }>(origin, 'POST', 'Users/signup', {
    email: `bench${Date.now()}@example.com`,
    password: 'Bench#Pass1',
    firstName: 'Bench',
    lastName: 'Mark',
    phoneNumber: '(415) 555-2671',
  });
  const data = await api<{ species: { id: number }[]; brands: { id: number }[] }>(origin, 'GET', 'utilities/static-data');
  const chipId = '985141000123456';
  const { pet } = await api<{ pet: { id: number } }>(origin, 'POST', 'Pet/create-pet', {
    name: 'Biscuit',
    chipId,
    confirmChip: chipId,
    chipTypeId: data.brands[0]!.id,
    speciesId: data.species[0]!.id,
    shareContactInfo: true,
  }, token);
  const { plans } = await api<{ plans: { id: number; oneTime: boolean }[] }>(origin, 'GET', 'pet/plans');
  await api(origin, 'PUT', 'Pet/update-plan', { id: pet.id, planId: plans.find((p) => !p.oneTime)!.id }, token);
  const { location } = await api<{ location: string }>(origin, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=false&isTagSelected=false`, undefined, token);
  const sessionId = location.split('/checkout/')[1]!;
  await api(origin, 'POST', `checkout/local/${sessionId}/pay`, { name: 'Bench Mark', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' }, token);
  const seeded = await api<{ publicId: string; shortId: string }>(origin, 'GET', `Pet/${pet.id}`, undefined, token);
  const lookup = await api<{ isRegistered: boolean }>(origin, 'GET', `utilities/microchip-lookup?id=${chipId}`);
  if (!lookup.isRegistered) throw new Error('the seeded chip does not look up as registered');
  return { chipId, publicId: seeded.publicId, shortId: seeded.shortId };
}

/** The biggest script the lookup page's HTML names (its entry and the chunks it preloads). */
function largestScript(): { path: string; bytes: number; file: string } {
  const dist = join(PORTAL_DIR, 'web/dist');
  const html = readFileSync(join(dist, 'index.html'), 'utf8');
  const scripts = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+\.js)"/g)].map((m) => ({
    path: m[1]!,
    bytes: statSync(join(dist, m[1]!)).size,
    file: join(dist, m[1]!),
  }));
  return scripts.sort((a, b) => b.bytes - a.bytes)[0]!;
}


/** A client address of its own for each request: 16 million of them, none asking twice within the run. */
let client = 0;
const nextAddress = () => {
  client++;
  return `10.${(client >> 16) & 255}.${(client >> 8) & 255}.${client & 255}`;
};

/** A page's brotli bytes as the portal sends them (fetch would decode them). */
function sentBrotli(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers: BROWSER }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        response.statusCode === 200 && response.headers['content-encoding'] === 'br'
          ? resolve(Buffer.concat(chunks))
          : reject(new Error(`${url}: ${response.statusCode}, ${response.headers['content-encoding'] ?? 'not'} compressed`)),
      );
    }).on('error', reject);
  });
}

async function run(label: string, dataDir: string, databaseUrl?: string) {
  const script = largestScript();
  const portal = await startPortal(PORTAL_DIR, dataDir, databaseUrl, PORTAL_ENV);
  // Beside the lookup page, the bare route sends the page's bytes as the portal sent them: parsing a 6 KB
  // answer cost the load generator 75 µs of CPU a request (13 for the bare JSON, 50 for the portal to
  // send the page), so against the small JSON the row measured the load generator more than the portal.
  const page = join(dataDir, 'lookup-page.html.br');
  const { bare, chipId, publicId, shortId } = await (async () => {
    const seeded = await seedRegisteredPet(portal.origin);
    writeFileSync(page, await sentBrotli(`${portal.origin}/microchip-lookup`));
    return { ...seeded, bare: await startBare({ script: `${script.file}.br`, page }) };
  })().catch(async (error: unknown) => {
    await portal.stop();
    throw error;
  });
  const lookupUrl = (id: string) => `${API}/utilities/microchip-lookup?id=${id}`;
  let unregistered = 0;
  const newChip = () => lookupUrl(String(900_000_000_000_000 + unregistered++));
  const at = (path: string) => `${portal.origin}${path}`;
  const targets: Target[] = [
    { name: 'lookup, registered chip', url: at(lookupUrl(chipId)), ratio: 0.5, p99: 25 },
    { name: 'lookup, unregistered chip', url: at(lookupUrl('985141000999999')), ratio: 0.5, p99: 25 },
    { name: 'lookup, a new chip each time', url: at(newChip()), vary: () => ({ path: newChip() }), ratio: 0.3, p99: 25 },
    {
      name: 'lookup, a new chip, a new address each time',
      url: at(newChip()),
      vary: () => ({ path: newChip(), headers: { 'x-forwarded-for': nextAddress() } }),
      ratio: 0.3,
      p99: 25,
    },
    { name: 'public profile', url: at(`${API}/pet/pet-profiles/${publicId}`), ratio: 0.3 },
    { name: 'short link', url: at(`${API}/pet/short-url-details/${shortId}`), ratio: 0.3 },
    { name: 'static-data', url: at(`${API}/utilities/static-data`), ratio: 0.5 },
    { name: 'lookup page HTML', url: at('/microchip-lookup'), headers: BROWSER, ratio: 0.5, barePath: '/bare-page' },
    { name: `largest script (${(script.bytes / 1024).toFixed(0)} KB)`, url: at(script.path), headers: BROWSER, ratio: 0.5, barePath: '/bare-file' },
  ];
  const rows = await measureBesideBare(bare, targets, DURATION_S, undefined, portal.pid).finally(async () => {
    await bare.stop();
    await portal.stop();
  });
  const load = loadavg();
  const again = await startPortal(PORTAL_DIR, dataDir, databaseUrl, PORTAL_ENV);
  await again.stop();
  console.log(`\n${label}, ${CONNECTIONS} connections, ${DURATION_S} s each, each beside the bare route measured just before it, the median of ${ROUNDS} rounds; the portal (${PORTAL_DIR}) at its default log level`);
  console.log(`(load average at the end ${load.map((l) => l.toFixed(2)).join(' ')})`);
  printRows(rows);
  const restartMs = again.startMs;
  console.log(`  first start ${(portal.startMs / 1000).toFixed(2)} s (new data); restart to first answer ${(restartMs / 1000).toFixed(2)} s (target < 3 s): ${restartMs < 3000 ? 'met' : 'NOT met'}\n`);
}

buildUnlessTold(PORTAL_DIR);
await onEachDatabase((label, dataDir, databaseUrl) => run(label, dataDir, databaseUrl));
