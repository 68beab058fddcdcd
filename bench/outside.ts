// Measuring from outside, as a client would: the built portal started as `npm start` starts it
// (`node server/dist/main.js`) and the bare Fastify route (bench/bare.ts), each in a process of its
// own, and the load generator (autocannon) in the benchmark's process. Each target is measured right
// after the bare route, so a busy machine slows both alike and the ratio stays honest.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import autocannon from 'autocannon';
import pg from 'pg';
import { freePort } from './builtPortal.js';

export const ROOT = new URL('..', import.meta.url).pathname;
export const API = '/api/v2';
export const CONNECTIONS = 50;

const stopped = (child: ChildProcess) => new Promise<void>((resolve) => (child.exitCode !== null ? resolve() : child.once('exit', () => resolve())));

/** `npm run build`, unless BENCH_BUILD=false or another checkout is measured. */
export function buildUnlessTold(checkout: string) {
  if (process.env.BENCH_BUILD === 'false' || checkout !== ROOT) return;
  const build = spawnSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit' });
  if (build.status !== 0) process.exit(build.status ?? 1);
}

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

/**
 * `node server/dist/main.js` of `checkout` on the data directory (and server, when given), at the
 * default log level, rate limits off for 127.0.0.1 unless `env` says otherwise; resolves once
 * health-check answers 200.
 */
export async function startPortal(checkout: string, dataDir: string, databaseUrl: string | undefined, env: Record<string, string> = {}) {
  const port = Number(process.env.BENCH_PORTAL_PORT ?? 0) || (await freePort());
  const logFile = join(dataDir, 'portal.log');
  const log = openSync(logFile, 'a');
  const childEnv: Record<string, string> = { ...(process.env as Record<string, string>), DATA_DIR: dataDir, PORT: String(port), HOST: '127.0.0.1', RATE_LIMIT_ALLOWLIST: '127.0.0.1', ...env };
  delete childEnv.LOG_LEVEL;
  delete childEnv.DATABASE_URL;
  if (databaseUrl) childEnv.DATABASE_URL = databaseUrl;
  const started = performance.now();
  const child = spawn(process.execPath, [join(checkout, 'server/dist/main.js')], { cwd: checkout, env: childEnv, stdio: ['ignore', log, log] });
  const origin = `http://127.0.0.1:${port}`;
  await waitForHealth(origin, child, logFile);
  return {
    origin,
    pid: child.pid,
    startMs: performance.now() - started,
    async stop() {
      child.kill('SIGTERM');
      await stopped(child);
    },
  };
}

/** bench/bare.ts in a process of its own (on BARE_PORT when set; the brotli files its /bare-file and /bare-page routes send); resolves with its origin. */
export async function startBare(files: { script?: string; page?: string } = {}) {
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'bench/bare.ts')], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...(files.script && { BARE_FILE: files.script }), ...(files.page && { BARE_PAGE: files.page }) },
  });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout!.once('data', (chunk: Buffer) => resolve(chunk.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench/bare.ts stopped (exit ${code}) before it listened`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    pid: child.pid,
    async stop() {
      child.kill();
      await stopped(child);
    },
  };
}

/** A fresh PGlite data directory, and with DATABASE_URL a database made on that server: `run` gets each, labelled; all removed after. */
export async function onEachDatabase(run: (label: string, dataDir: string, databaseUrl?: string) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-'));
  try {
    await run('PGlite', dataDir);
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return;
  const name = `petreg_bench_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  const serverDataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-'));
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    await run('PostgreSQL server', serverDataDir, url.toString());
  } finally {
    rmSync(serverDataDir, { recursive: true, force: true });
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
  }
}

export interface Target {
  name: string;
  /** The full URL. */
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
  /** Each request's own path, headers and body (a new chip, another client address, another session's token, another owner). */
  vary?: () => { path?: string; headers?: Record<string, string>; body?: string };
  /** Fraction of the bare route's req/s to reach, and the p99 to stay under, in ms. */
  ratio?: number;
  p99?: number;
  /** The bare route to compare with: its /bare-file or /bare-page, sending the same body, for an answer its bytes bound; its /bare by default. */
  barePath?: string;
}

export interface Measured {
  rps: number;
  p99: number;
  failures: number;
  /** The server's CPU time (user and system) per answered request, in µs, when its process was named. */
  cpuUs?: number;
}

/** A process's CPU time so far, in µs (Linux: utime and stime of /proc/<pid>/stat, in ticks of 10 ms); null where there is no /proc. */
function cpuTimeUs(pid: number | undefined): number | null {
  if (pid === undefined || !existsSync(`/proc/${pid}/stat`)) return null;
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

export async function measure(
  target: Pick<Target, 'url' | 'method' | 'headers' | 'body' | 'vary'>,
  seconds: number,
  connections = CONNECTIONS,
  serverPid?: number,
): Promise<Measured> {
  const cpuBefore = cpuTimeUs(serverPid);
  const result = await autocannon({
    url: target.url,
    ...(target.method ? { method: target.method, body: target.body } : {}),
    connections,
    duration: seconds,
    headers: target.headers,
    requests: target.vary
      ? [
          {
            setupRequest: (request) => {
              const own = target.vary!();
              return { ...request, ...(own.path ? { path: own.path } : {}), ...(own.body ? { body: own.body } : {}), headers: { ...request.headers, ...own.headers } };
            },
          },
        ]
      : undefined,
  });
  const cpuAfter = cpuTimeUs(serverPid);
  const answered = result.requests.total;
  return {
    rps: result.requests.average,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    ...(cpuBefore !== null && cpuAfter !== null && answered > 0 && { cpuUs: (cpuAfter - cpuBefore) / answered }),
  };
}

export interface Row extends Measured {
  target: Target;
  bare: Measured;
  load: number[];
  /** Each round's share of the bare route, lowest first: the spread the median came from. */
  shares: number[];
}

/** Times each target is measured beside the bare route (BENCH_ROUNDS); its row is the round of the median share. */
export const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 7);

/**
 * Each target right after the bare route (both warmed beforehand), both for `seconds`, in ROUNDS
 * rounds, and the row is the round whose share of the bare route is the median. On a shared machine
 * the same process's CPU a request swings by half within a minute (measured on one portal under one
 * chip, 2-second pairs: 42 to 90 µs), so a pair of long runs can fall either side of a swing; many short
 * pairs put each target and its bare route in the same moment. Given the processes, each row also has
 * the CPU time each server spent a request: on 2 cores shared with the load generator, req/s can be
 * bound by the client (a page it parses more slowly than either server sends it), which CPU time a
 * request is not.
 */
export async function measureBesideBare(
  bare: { origin: string; pid?: number },
  targets: Target[],
  seconds: number,
  connections = CONNECTIONS,
  portalPid?: number,
): Promise<Row[]> {
  for (const target of [...new Set(targets.map((t) => t.barePath ?? '/bare'))]) await measure({ url: `${bare.origin}${target}` }, 1, connections);
  for (const target of targets) await measure(target, 1, connections);
  const rows: Row[] = [];
  for (const target of targets) {
    const rounds: Omit<Row, 'shares'>[] = [];
    for (let round = 0; round < ROUNDS; round++) {
      const bareRun = await measure({ url: `${bare.origin}${target.barePath ?? '/bare'}`, headers: target.headers }, seconds, connections, bare.pid);
      const row = await measure(target, seconds, connections, portalPid);
      rounds.push({ ...row, target, bare: bareRun, load: loadavg() });
    }
    const share = (r: Measured & { bare: Measured }) => r.rps / r.bare.rps;
    rounds.sort((a, b) => share(a) - share(b));
    rows.push({ ...rounds[Math.floor(rounds.length / 2)]!, shares: rounds.map(share) });
  }
  return rows;
}

/** Whether the row reached its target: its share of the bare route, its p99, and no answer other than 2xx. */
export function verdict(row: Row): string {
  const { ratio, p99 } = row.target;
  if (ratio === undefined && p99 === undefined) return '';
  const goal = [ratio !== undefined ? `${ratio * 100}% of bare` : '', p99 !== undefined ? `p99 < ${p99} ms` : '', 'no non-2xx'].filter(Boolean).join(', ');
  const met = (ratio === undefined || row.rps / row.bare.rps >= ratio) && (p99 === undefined || row.p99 < p99) && row.failures === 0;
  return `target ${goal}: ${met ? 'met' : 'NOT met'}`;
}

export function printRows(rows: Row[]) {
  for (const r of rows) {
    const spread = r.shares.length > 1 ? `, rounds ${(r.shares[0]! * 100).toFixed(0)}-${(r.shares.at(-1)! * 100).toFixed(0)}%` : '';
    const share = `${((r.rps / r.bare.rps) * 100).toFixed(1).padStart(5)}% of bare ${r.bare.rps.toFixed(0).padStart(6)} (p99 ${r.bare.p99} ms${r.target.barePath ? ', same body' : ''}${spread})`;
    const cpu = r.cpuUs !== undefined && r.bare.cpuUs !== undefined ? `  CPU a request ${r.cpuUs.toFixed(1)} µs (bare ${r.bare.cpuUs.toFixed(1)})` : '';
    console.log(
      `  ${r.target.name.padEnd(44)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${share.padEnd(62)} non-2xx ${r.failures}  load ${r.load[0]!.toFixed(1)}${cpu}  ${verdict(r)}`,
    );
  }
}
