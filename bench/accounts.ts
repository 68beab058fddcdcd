// Throughput of the account calls beside a bare JSON route in the same process.
// Run: npm run bench   (DATABASE_URL=postgres://… to measure on a PostgreSQL server instead of PGlite)
import autocannon from 'autocannon';
import { startBenchPortal } from './portal.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 10);

const portal = await startBenchPortal((app) => {
  app.get('/bench/bare', async () => ({ succeeded: true, result: { ok: true }, errors: [] }));
});
const { address, token } = portal;

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
  body: JSON.stringify(portal.owner),
});

console.log(`\n${portal.databaseKind}, ${DURATION_S} s each, 10 connections\n`);
for (const r of [bare, current, login]) {
  const ratio = ((r.rps / bare.rps) * 100).toFixed(1);
  console.log(`${r.name.padEnd(24)} ${r.rps.toFixed(0).padStart(7)} req/s  p99 ${String(r.p99).padStart(4)} ms  ${ratio.padStart(5)}% of bare  failures ${r.failures}`);
}
console.log(`\ntarget: current-user >= 50% of bare -> ${current.rps / bare.rps >= 0.5 ? 'met' : 'NOT met'}`);
console.log('login is bounded by argon2id (about 9 ms a hash on one core)');

await portal.close();
