// The public calls (chip lookup, public profile, short link, static data, the lookup page and its
// largest script) against a bare Fastify route, each in its own process, 50 connections each. The
// portal runs as `npm start` runs it: built, `node server/dist/main.js`, the default log level, on a
// new data directory (PGlite) and, when DATABASE_URL is given, on a database created on that server for
// the run and dropped after it. Then a restart on the same data, timed until the first answer.
// Run: npm run bench:public   (BENCH_SECONDS=5 by default; BENCH_BUILD=false reuses the last build;
// BENCH_PORTAL_DIR=/another/checkout measures that checkout's build, built beforehand, for a before/after)
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdtempSync, openSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createServer } from 'node:net';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = 50;
const ROOT = new URL('..', import.meta.url).pathname;
const PORTAL_DIR = process.env.BENCH_PORTAL_DIR ?? ROOT;
const API = '/api/v2';
const BROWSER = { 'accept-encoding': 'br, gzip' };

interface Target {
  name: string;
  path: string;
  headers?: Record<string, string>;
  /** Each request asks something new: no answer is asked twice. */
  vary?: () => string;
  /** Fraction of the bare route's req/s to reach, and a p99 to stay under, when the issue sets one. */
  ratio?: number;
  /** Compared with the bare route sending the same bytes, rather than a small JSON answer. */
  sameBytes?: boolean;
  p99?: number;
}

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });

const stopped = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

async function waitForHealth(origin: string, child: ChildProcess, logFile: string) {
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the portal stopped (exit ${child.exitCode}); see ${logFile}`);
    try {
      if ((await fetch(`${origin}${API}/utilities/health-check`)).status === 200) return;
    } catch {
      // Not listening yet.
    }
    await sleep(20);
  }
}

/** `node server/dist/main.js` on the data directory (and server, when given); resolves once health-check answers 200. */
async function startPortal(dataDir: string, databaseUrl: string | undefined) {
  const port = await freePort();
  const logFile = join(dataDir, 'portal.log');
  const log = openSync(logFile, 'a');
  const env: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_ALLOWLIST: '127.0.0.1' };
  delete env.LOG_LEVEL;
  delete env.DATABASE_URL;
  if (databaseUrl) env.DATABASE_URL = databaseUrl;
  const started = performance.now();
  const child = spawn(process.execPath, [join(PORTAL_DIR, 'server/dist/main.js')], { cwd: PORTAL_DIR, env, stdio: ['ignore', log, log] });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin, child, logFile);
  return {
    origin,
    startMs: performance.now() - started,
    async stop() {
      child.kill('SIGTERM');
      await stopped(child);
    },
  };
}

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

async function measure(origin: string, target: Target) {
  const result = await autocannon({
    url: `${origin}${target.path}`,
    connections: CONNECTIONS,
    duration: DURATION_S,
    headers: target.headers,
    requests: target.vary ? [{ setupRequest: (request) => ({ ...request, path: target.vary!() }) }] : undefined,
  });
  return { rps: result.requests.average, p99: result.latency.p99, failures: result.non2xx + result.errors + result.timeouts };
}

type Row = { name: string; rps: number; p99: number; failures: number; ratio?: number; target?: Target };
const rows: { label: string; rows: Row[]; startMs: number; restartMs: number; load: number[] }[] = [];

async function run(label: string, bareOrigin: string, dataDir: string, databaseUrl?: string) {
  const portal = await startPortal(dataDir, databaseUrl);
  const { chipId, publicId, shortId } = await seedRegisteredPet(portal.origin);
  const script = largestScript();
  let unregistered = 0;
  const targets: Target[] = [
    { name: 'lookup, registered chip', path: `${API}/utilities/microchip-lookup?id=${chipId}`, ratio: 0.5, p99: 25 },
    { name: 'lookup, unregistered chip', path: `${API}/utilities/microchip-lookup?id=985141000999999`, ratio: 0.5, p99: 25 },
    {
      name: 'lookup, a new chip each time',
      path: `${API}/utilities/microchip-lookup?id=900000000000000`,
      vary: () => `${API}/utilities/microchip-lookup?id=${900_000_000_000_000 + unregistered++}`,
    },
    { name: 'public profile', path: `${API}/pet/pet-profiles/${publicId}`, ratio: 0.3 },
    { name: 'short link', path: `${API}/pet/short-url-details/${shortId}`, ratio: 0.3 },
    { name: 'static-data', path: `${API}/utilities/static-data`, ratio: 0.5 },
    { name: 'lookup page HTML', path: '/microchip-lookup', headers: BROWSER, ratio: 0.5 },
    { name: `largest script (${(script.bytes / 1024).toFixed(0)} KB)`, path: script.path, headers: BROWSER, ratio: 0.5, sameBytes: true },
  ];
  // Warm the JIT and the caches of both processes first.
  await measure(bareOrigin, { name: 'warm-up', path: '/bare' });
  for (const target of targets) await autocannon({ url: `${portal.origin}${target.path}`, connections: CONNECTIONS, duration: 1, headers: target.headers });
  const measured: Row[] = [];
  const bare = { name: 'bare route (own process)', ...(await measure(bareOrigin, { name: 'bare', path: '/bare' })) };
  const bareFile = { name: 'bare route, the script\'s bytes', ...(await measure(bareOrigin, { name: 'bare file', path: '/bare-file', headers: BROWSER })) };
  measured.push(bare, bareFile);
  for (const target of targets) {
    const row = await measure(portal.origin, target);
    measured.push({ name: target.name, ...row, ratio: row.rps / (target.sameBytes ? bareFile : bare).rps, target });
  }
  const load = loadavg();
  await portal.stop();
  const again = await startPortal(dataDir, databaseUrl);
  await again.stop();
  rows.push({ label, rows: measured, startMs: portal.startMs, restartMs: again.startMs, load });
}

function report() {
  console.log(`\n${CONNECTIONS} connections, ${DURATION_S} s each; the portal (${PORTAL_DIR}) at its default log level\n`);
  for (const { label, rows: measured, startMs, restartMs, load } of rows) {
    console.log(`${label} (load average ${load.map((l) => l.toFixed(2)).join(' ')})`);
    for (const r of measured) {
      const ratio = r.ratio === undefined ? '' : `${(r.ratio * 100).toFixed(1).padStart(5)}% of bare${r.target?.sameBytes ? ' (same bytes)' : ''}`;
      const misses = r.target && ((r.target.ratio && r.ratio! < r.target.ratio) || (r.target.p99 && r.p99 >= r.target.p99) || r.failures > 0);
      const goal = r.target?.ratio ? `  target ${r.target.ratio * 100}%${r.target.p99 ? `, p99 < ${r.target.p99} ms` : ''}: ${misses ? 'NOT met' : 'met'}` : '';
      console.log(`  ${r.name.padEnd(30)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${ratio.padEnd(27)} non-2xx ${r.failures}${goal}`);
    }
    console.log(`  first start ${(startMs / 1000).toFixed(2)} s (new data); restart to first answer ${(restartMs / 1000).toFixed(2)} s (target < 3 s): ${restartMs < 3000 ? 'met' : 'NOT met'}\n`);
  }
}

if (process.env.BENCH_BUILD !== 'false' && PORTAL_DIR === ROOT) {
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

const bareProcess = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/bare.ts')], {
  cwd: ROOT,
  stdio: ['ignore', 'pipe', 'inherit'],
  env: { ...process.env, BARE_FILE: `${largestScript().file}.br` },
});
const barePort = await new Promise<string>((resolve) => bareProcess.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim())));
const bareOrigin = `http://127.0.0.1:${barePort}`;

try {
  const dataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-public-'));
  try {
    await run('PGlite', bareOrigin, dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const serverUrl = process.env.DATABASE_URL;
  if (serverUrl) {
    const name = `petreg_bench_${randomUUID().replace(/-/g, '')}`;
    const admin = new pg.Client({ connectionString: serverUrl });
    await admin.connect();
    await admin.query(`create database ${name}`);
    const serverDataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-public-'));
    try {
      const url = new URL(serverUrl);
      url.pathname = `/${name}`;
      await run('PostgreSQL server', bareOrigin, serverDataDir, url.toString());
    } finally {
      rmSync(serverDataDir, { recursive: true, force: true });
      await admin.query(`drop database if exists ${name}`);
      await admin.end();
    }
  }
  report();
} finally {
  bareProcess.kill();
}
