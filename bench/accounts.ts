// Throughput of the account calls beside a bare JSON route in the same process.
// Run: npm run bench   (DATABASE_URL=postgres://… to measure on a PostgreSQL server instead of PGlite)
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import autocannon from 'autocannon';
import { createMailer } from '../server/src/adapters/mail/index.js';
import { buildApp } from '../server/src/app.js';
import { loadConfig } from '../server/src/config.js';
import { openDatabase } from '../server/src/db/client.js';
import { seedStaticData } from '../server/src/db/seed.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

const dataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-'));
const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: dataDir, RATE_LIMIT_ALLOWLIST: '127.0.0.1', DATABASE_URL: process.env.DATABASE_URL });
const database = await openDatabase({ url: config.databaseUrl, dataDir: config.databaseUrl ? null : join(dataDir, 'db') });
await database.migrate();
await seedStaticData(database.db);
const app = await buildApp({
  config,
  database,
  mailer: createMailer({ from: config.mailFrom, outboxDir: join(dataDir, 'mail') }),
  jwtSecret: 'bench-secret-bench-secret-bench-secret',
});
app.get('/bench/bare', async () => ({ succeeded: true, result: { ok: true }, errors: [] }));
const address = await app.listen({ port: 0, host: '127.0.0.1' });

const credentials = { email: `bench${Date.now()}@example.com`, password: 'Bench#Pass1' };
const signUp = await app.inject({
  method: 'POST',
  url: '/api/v2/Users/signup',
  payload: { ...credentials, firstName: 'Bench', lastName: 'Mark', phoneNumber: '(415) 555-2671' },
});
const token: string = signUp.json().result.token;

async function run(name: string, options: Partial<autocannon.Options>) {
  const result = await autocannon({ url: address, connections: 10, duration: DURATION_S, ...options });
  const failures = result.non2xx + result.errors;
  return { name, rps: result.requests.average, p99: result.latency.p99, failures };
}

// Warm up the JIT and the caches so each measured run starts from the same footing.
await autocannon({ url: `${address}/bench/bare`, connections: 10, duration: 2 });
const bare = await run('bare JSON route', { url: `${address}/bench/bare` });
const current = await run('GET Users/current-user', {
  url: `${address}/api/v2/Users/current-user`,
  headers: { authorization: `Bearer ${token}` },
});
const login = await run('POST Users/login', {
  url: `${address}/api/v2/Users/login`,
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(credentials),
});

console.log(`\n${database.kind}, ${DURATION_S} s each, 10 connections\n`);
for (const r of [bare, current, login]) {
  const ratio = ((r.rps / bare.rps) * 100).toFixed(1);
  console.log(`${r.name.padEnd(24)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${ratio.padStart(5)}% of bare  failures ${r.failures}`);
}
console.log(`\ntarget: current-user >= 50% of bare -> ${current.rps / bare.rps >= 0.5 ? 'met' : 'NOT met'}`);
console.log('login is bounded by argon2id (about 9 ms a hash on one core)');

await app.close();
await database.close();
