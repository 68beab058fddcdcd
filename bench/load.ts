// A mixed workload from its own process against the built portal as `npm start` runs it: 100
// connections for 60 s (BENCH_SECONDS), each an owner with a chipped dog on a yearly plan, asking what
// people ask: the microchip lookup (a registered chip, or a number nobody asked for before), a public
// profile, a short link, the owner's pet list, an update of the owner's pet, a sign-in, a finder's
// report, and once per connection a lost pet alert. On the embedded database (PGlite), then, when a
// PostgreSQL server answers (DATABASE_URL, or 127.0.0.1:5432), on it with one and with two instances
// (connections shared between them). Also writes alone on PGlite, at 25 and at 100 connections.
// Per call: req/s, p50/p99 and statuses; 5xx and client timeouts (10 s) counted; every acknowledged
// write looked for afterwards; each portal's memory (RSS) after set-up and at the end; the CPU time a
// request took in the portal, in PostgreSQL (every postgres process of this machine) and in the load
// generator, read from /proc.
// Run: npm run build && npm run bench:load   (BENCH_ONLY=server: the PostgreSQL server's rows only;
// BENCH_ONLY=calls: each call of the mix alone on the server, 50 connections, for what each one costs)
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { loadavg } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import pg from 'pg';
import { dogRegistration, type RegistrationChoices } from '../e2e/tests/registration.js';
import { api, dogBreed, registerPet, requireBuild, startBuiltPortal, type Breed, type RegisteredPet } from './builtPortal.js';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 60);
const SERVER_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const CLIENT_TIMEOUT_MS = 10_000;
const PASSWORD = 'Bench#Pass1';
/** An 8 x 8 brown square: an alert needs the pet's photo. */
const PHOTO =
  'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAgAAAAICAIAAABLbSncAAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAEUlEQVQImWPYUOWEFTEMLQkAqlVbAWoNf2sAAAAASUVORK5CYII=';

type Call = 'lookup, registered' | 'lookup, new chip' | 'profile' | 'short link' | 'pet list' | 'pet update' | 'sign-in' | 'found report' | 'alert send';
/** Shares of the mix, in percent; the alert goes once per connection, at a random moment of the first half. */
const MIX: [Call, number][] = [
  ['lookup, registered', 18],
  ['lookup, new chip', 17],
  ['profile', 20],
  ['short link', 10],
  ['pet list', 16],
  ['pet update', 16],
  ['sign-in', 2],
  ['found report', 1],
];
const WRITES_ONLY: [Call, number][] = [['pet update', 100]];

interface Owner extends RegisteredPet {
  email: string;
  base: string;
}

interface Tally {
  ms: number[];
  statuses: Map<string, number>;
}

/** The Retry-After of the last 503 that had one: a client told to wait waits that long before its next call. */
let retryAfterS = 1;

function send(agent: Agent, base: string, method: string, path: string, token?: string, body?: unknown): Promise<number | string> {
  const payload = body === undefined ? undefined : JSON.stringify(body);
  return new Promise((resolve) => {
    const url = new URL(`/api/v2/${path}`, base);
    const req = request(
      { agent, host: url.hostname, port: url.port, path: url.pathname + url.search, method, timeout: CLIENT_TIMEOUT_MS, headers: {
        ...(payload ? { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) } : {}),
        ...(token ? { authorization: `Bearer ${token}` } : {}),
      } },
      (res) => {
        const status = res.statusCode ?? 0;
        if (status === 503 && res.headers['retry-after']) retryAfterS = Number(res.headers['retry-after']);
        // A refusal is counted with its first message, so a call the benchmark gets wrong shows why.
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => status >= 400 && status < 500 && chunks.push(chunk));
        res.once('end', () => {
          if (!chunks.length) return resolve(status);
          const errors = (JSON.parse(Buffer.concat(chunks).toString()) as { errors?: string[] }).errors;
          resolve(`${status} ${errors?.[0] ?? ''}`.trim());
        });
        res.once('error', () => resolve('error'));
      },
    );
    req.once('timeout', () => {
      req.destroy();
      resolve('timeout');
    });
    req.once('error', () => resolve('error'));
    req.end(payload);
  });
}

/**
 * CPU time of a process so far (user and system), in clock ticks (10 ms); with `reaped`, also that of
 * its children that ended (PostgreSQL's postmaster collects its backends').
 */
const cpuTicks = (pid: number, reaped = false) => {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ').map(Number);
  return fields[11]! + fields[12]! + (reaped ? fields[13]! + fields[14]! : 0);
};
/** CPU time so far of each PostgreSQL process on this machine (its backends, writer, WAL), in clock ticks, by process id. */
const postgresTicks = () =>
  new Map(
    readdirSync('/proc')
      .filter((entry) => /^\d+$/.test(entry))
      .flatMap((pid) => {
        try {
          return readFileSync(`/proc/${pid}/stat`, 'utf8').includes(' (postgres) ') ? [[pid, cpuTicks(Number(pid), true)] as const] : [];
        } catch {
          return [];
        }
      }),
  );
/**
 * PostgreSQL's CPU ticks since `start`, or null when it does not run on this machine. A backend that
 * ended meanwhile is counted through the postmaster, whole: its ticks before `start` are taken off.
 */
function postgresTicksSince(start: Map<string, number>): number | null {
  const now = postgresTicks();
  if (now.size === 0) return null;
  const alive = [...now].reduce((sum, [pid, ticks]) => sum + ticks - (start.get(pid) ?? 0), 0);
  return alive - [...start].reduce((sum, [pid, ticks]) => sum + (now.has(pid) ? 0 : ticks), 0);
}
const rss = (pid: number) => Number(/VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))![1]) / 1024;
const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
const newChip = () => `985${String(Math.floor(Math.random() * 1e12)).padStart(12, '0')}`;

/** Owners of a dog with a photo and a breed, as an alert needs. */
async function owners(bases: string[], count: number, breed: Breed): Promise<Owner[]> {
  const made: Owner[] = [];
  for (let i = 0; i < count; i += 10) {
    made.push(
      ...(await Promise.all(
        Array.from({ length: Math.min(10, count - i) }, async (_, j) => {
          const base = bases[(i + j) % bases.length]!;
          const email = `bench-load-${randomUUID()}@example.com`;
          return { ...(await registerPet(base, { email, photo: PHOTO, breeds: [breed] })), email, base };
        }),
      )),
    );
  }
  return made;
}

async function run(label: string, bases: string[], pids: number[], connections: number, mix: [Call, number][], onServer = false) {
  const breed = await dogBreed(bases[0]!);
  const all = await owners(bases, connections, breed);
  const choices = await api<RegistrationChoices>(bases[0]!, 'GET', 'utilities/static-data');
  const agents = new Map(bases.map((base) => [base, new Agent({ keepAlive: true, maxSockets: connections })]));
  const memoryStart = pids.map(rss);
  const tallies = new Map<Call, Tally>();
  const tally = (call: Call, ms: number, status: number | string) => {
    const t: Tally = tallies.get(call) ?? { ms: [], statuses: new Map() };
    tallies.set(call, t);
    t.ms.push(ms);
    const key = typeof status === 'number' ? String(status) : status;
    t.statuses.set(key, (t.statuses.get(key) ?? 0) + 1);
  };
  const acknowledged = { names: new Map<number, { last: string | null; after: string[] }>(), reports: new Map<number, number>(), alerts: new Set<number>() };
  const end = Date.now() + SECONDS * 1000;
  const load = loadavg()[0]!;
  const cpuStart = { portals: pids.map((pid) => cpuTicks(pid)), postgres: postgresTicks(), generator: process.cpuUsage() };

  await Promise.all(
    all.map(async (owner, index) => {
      const agent = agents.get(owner.base)!;
      const alertAt = mix === MIX ? Date.now() + Math.random() * SECONDS * 500 : Infinity;
      let updates = 0;
      const names = { last: null as string | null, after: [] as string[] };
      acknowledged.names.set(owner.id, names);
      while (Date.now() < end) {
        let call: Call;
        let done: Promise<number | string>;
        const draw = Math.random() * 100;
        let sum = 0;
        call = mix.find(([, share]) => (sum += share) > draw)?.[0] ?? mix[0]![0];
        if (Date.now() >= alertAt && !acknowledged.alerts.has(owner.id)) call = 'alert send';
        const started = performance.now();
        const other = all[(index + 1 + Math.floor(Math.random() * (all.length - 1))) % all.length]!;
        let onAcknowledged = () => {};
        switch (call) {
          case 'lookup, registered':
            done = send(agent, owner.base, 'GET', `utilities/microchip-lookup?id=${other.chipId}`);
            break;
          case 'lookup, new chip':
            done = send(agent, owner.base, 'GET', `utilities/microchip-lookup?id=${newChip()}`);
            break;
          case 'profile':
            done = send(agent, owner.base, 'GET', `pet/pet-profiles/${other.publicId}`);
            break;
          case 'short link':
            done = send(agent, owner.base, 'GET', `pet/short-url-details/${other.shortId}`);
            break;
          case 'pet list':
            done = send(agent, owner.base, 'GET', 'pet/user-pet-list', owner.token);
            break;
          case 'pet update': {
            const name = `Biscuit ${++updates}`;
            names.after.push(name);
            done = send(agent, owner.base, 'PUT', `Pet/${owner.id}`, owner.token, { ...dogRegistration(owner.chipId, choices, name), breeds: [breed], image: owner.image, id: owner.id });
            onAcknowledged = () => {
              names.last = name;
              names.after = [];
            };
            break;
          }
          case 'sign-in':
            done = send(agent, owner.base, 'POST', 'Users/login', undefined, { email: owner.email, password: PASSWORD });
            break;
          case 'found report':
            done = send(agent, owner.base, 'POST', 'public/found-report', undefined, { publicId: other.publicId, name: 'Sam Finder', email: 'finder@example.org', message: 'Found near the park.', where: '63101' });
            onAcknowledged = () => acknowledged.reports.set(other.id, (acknowledged.reports.get(other.id) ?? 0) + 1);
            break;
          case 'alert send':
            done = send(agent, owner.base, 'POST', 'petalert/send-mail-from-pet-alert', owner.token, {
              petId: owner.id,
              missingDate: new Date(Date.now() - 3_600_000).toISOString(),
              zipCode: '63101',
              incidentDescription: 'Slipped her collar at the park.',
            });
            onAcknowledged = () => acknowledged.alerts.add(owner.id);
            break;
        }
        const status = await done;
        tally(call, performance.now() - started, status);
        if (status === 200) onAcknowledged();
        // Told to come back later, a client waits that long (Retry-After) rather than asking again at once.
        if (status === 503) await sleep(retryAfterS * 1000);
        // The alert is tried once, whatever its answer.
        if (call === 'alert send') acknowledged.alerts.add(owner.id);
      }
    }),
  );
  const memoryEnd = pids.map(rss);
  const cpu = {
    portals: pids.reduce((sum, pid, i) => sum + cpuTicks(pid) - cpuStart.portals[i]!, 0) * 10_000,
    postgres: onServer ? postgresTicksSince(cpuStart.postgres) : null,
    generator: Object.values(process.cpuUsage(cpuStart.generator)).reduce((a, b) => a + b, 0),
  };
  agents.forEach((agent) => agent.destroy());

  // Every write acknowledged is there.
  let missing = 0;
  for (const owner of all) {
    const pet = await api<{ name: string; status: string | null }>(owner.base, 'GET', `Pet/${owner.id}`, undefined, owner.token);
    const names = acknowledged.names.get(owner.id)!;
    if (names.last !== null && pet.name !== names.last && !names.after.includes(pet.name)) missing++;
    // A report answered 200 is in the owner's inbox; one the client gave up on may be there too.
    const { items } = await api<{ items: unknown[] }>(owner.base, 'GET', 'found-reports', undefined, owner.token);
    missing += Math.max(0, (acknowledged.reports.get(owner.id) ?? 0) - items.length);
  }

  const total = [...tallies.values()].reduce((n, t) => n + t.ms.length, 0);
  console.log(`\n${label}: ${connections} connections, ${SECONDS} s, load average ${load.toFixed(1)} at start`);
  console.log(`${'call'.padEnd(20)} ${'req/s'.padStart(7)} ${'p50 ms'.padStart(7)} ${'p99 ms'.padStart(7)}  statuses`);
  for (const [call, t] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    const sorted = [...t.ms].sort((a, b) => a - b);
    const statuses = [...t.statuses].sort().map(([s, n]) => `${s}: ${n}`).join(', ');
    console.log(`${call.padEnd(20)} ${(t.ms.length / SECONDS).toFixed(0).padStart(7)} ${percentile(sorted, 0.5).toFixed(0).padStart(7)} ${percentile(sorted, 0.99).toFixed(0).padStart(7)}  ${statuses}`);
  }
  const failed = [...tallies.values()].reduce((n, t) => n + [...t.statuses].filter(([s]) => s.startsWith('5') || s === 'timeout' || s === 'error').reduce((m, [, c]) => m + c, 0), 0);
  console.log(`in all ${(total / SECONDS).toFixed(0)} req/s; 5xx, timeouts and broken connections: ${failed}; acknowledged writes missing: ${missing}`);
  const perRequest = (us: number) => `${(us / total).toFixed(0)} µs`;
  const postgres = cpu.postgres === null ? 'not measured (not on this machine)' : perRequest(cpu.postgres * 10_000);
  console.log(
    `CPU per request: the portal${pids.length > 1 ? 's' : ''} ${perRequest(cpu.portals)}${onServer ? `, PostgreSQL ${postgres}` : ''}, the load generator ${perRequest(cpu.generator)}`,
  );
  console.log(`memory (RSS, MB) after set-up ${memoryStart.map((m) => m.toFixed(0)).join(' / ')}, at the end ${memoryEnd.map((m) => m.toFixed(0)).join(' / ')}`);
  return { tallies, total };
}

/** Prints whether a figure meets its target. */
function target(what: string, met: boolean) {
  console.log(`target ${what}: ${met ? 'met' : 'NOT met'}`);
}

const p99Of = (t: Tally | undefined) => percentile([...(t?.ms ?? [])].sort((a, b) => a - b), 0.99);

async function serverAnswers() {
  const client = new pg.Client({ connectionString: SERVER_URL, connectionTimeoutMillis: 1000 });
  try {
    await client.connect();
    await client.end();
    return true;
  } catch {
    return false;
  }
}

/** A new database on the server with `instances` portals on it, given to `measure`; all dropped after. */
async function onServer(instances: number, measure: (portals: Awaited<ReturnType<typeof startBuiltPortal>>[]) => Promise<void>) {
  const admin = new pg.Client({ connectionString: SERVER_URL });
  await admin.connect();
  const database = `petreg_load_${randomUUID().replace(/-/g, '')}`;
  await admin.query(`create database ${database}`);
  const url = new URL(SERVER_URL);
  url.pathname = `/${database}`;
  const portals = [];
  try {
    // One after the other: the first start migrates the new database.
    // With the sample directory the embedded database has by default: an alert reaches the sites near the pet.
    for (let i = 0; i < instances; i++) portals.push(await startBuiltPortal(undefined, { DATABASE_URL: url.toString(), SAMPLE_SITES: 'true' }));
    await measure(portals);
  } finally {
    await Promise.all(portals.map((p) => p.stop()));
    await admin.query(`drop database if exists ${database} with (force)`);
    await admin.end();
  }
}

async function mixedOnServer(instances: number) {
  await onServer(instances, async (portals) => {
    const { tallies, total } = await run(
      `PostgreSQL server, ${instances} instance${instances > 1 ? 's' : ''}`,
      portals.map((p) => p.base),
      portals.map((p) => p.pid),
      100,
      MIX,
      true,
    );
    target('mixed >= 3,000 req/s', total / SECONDS >= 3000);
    target('p99 of every call < 500 ms', [...tallies.values()].every((t) => p99Of(t) < 500));
  });
}

/** Each call of the mix alone on one instance, 50 connections: what each one costs the portal and the server. */
async function eachCallOnServer() {
  for (const [call] of MIX) {
    await onServer(1, async ([portal]) => {
      await run(`PostgreSQL server, 1 instance, ${call} alone`, [portal!.base], [portal!.pid], 50, [[call, 100]], true);
    });
  }
}

requireBuild();
const only = process.env.BENCH_ONLY;
if (only !== undefined && only !== 'server' && only !== 'calls') throw new Error(`BENCH_ONLY=${only}: only "server" and "calls" are known`);
if (only === 'calls') {
  if (!(await serverAnswers())) throw new Error(`BENCH_ONLY=calls: no PostgreSQL server answers at ${SERVER_URL}`);
  await eachCallOnServer();
  process.exit(0);
}
if (only !== 'server') {
  const portal = await startBuiltPortal();
  try {
    await run('PGlite (embedded)', [portal.base], [portal.pid], 100, MIX);
    const writes25 = await run('PGlite (embedded), updates alone', [portal.base], [portal.pid], 25, WRITES_ONLY);
    target('PGlite update p99 < 500 ms at 25 writing connections', p99Of(writes25.tallies.get('pet update')) < 500);
    await run('PGlite (embedded), updates alone', [portal.base], [portal.pid], 100, WRITES_ONLY);
  } finally {
    await portal.stop();
  }
}
if (await serverAnswers()) {
  await mixedOnServer(1);
  await mixedOnServer(2);
} else console.log(`\nNo PostgreSQL server answers at ${SERVER_URL}: the server rows are left out.`);
