// The lost-pet alert's radius query: the active sites taking alerts, with an e-mail, within 50 miles
// of a ZIP code, each with its id, e-mail and distance (what the alert writes as its recipients), in
// a directory of 100,000 sites spread over the ZIP centres, denser in ten metro areas. Times it from dense ZIP codes on PGlite (a temporary folder) and, when DATABASE_URL is
// given, on that PostgreSQL server (in a database created for the run and dropped after it).
// Run: npm run bench:sites   (BENCH_RUNS=200 by default)
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql } from 'drizzle-orm';
import { queryRows, type Database, type DatabaseHandle } from '../server/src/db/client.js';
import { sites } from '../server/src/db/schema.js';
import { seedStaticData } from '../server/src/db/seed.js';
import { findZip, sitesWithin } from '../server/src/geography.js';
import { onEachDatabase, seedSites } from './directory.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 200);
const RADIUS_MILES = 50;
const TARGET_P95_MS = 20;
/** Dense places to search from: Manhattan, the Chicago Loop, downtown Los Angeles. */
const ORIGINS = ['10001', '60601', '90012'];
/**
 * The sites an alert last seen at `zip` reaches, read back as one JSON list (PGlite reads each field of
 * each row in JavaScript; the alert itself writes them as its recipients without reading them).
 */
async function alertReach(db: Database, zip: string) {
  const centre = (await findZip(db, zip))!;
  const { where, distance } = sitesWithin(centre, RADIUS_MILES, { receivesAlerts: true });
  const [row] = await queryRows<{ reached: [number, string, number][] }>(
    db,
    sql`select coalesce(json_agg(json_build_array(${sites.id}, ${sites.email}, ${distance})), '[]') as reached from ${sites} where ${where}`,
  );
  return row!.reached;
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(label: string, database: DatabaseHandle) {
  await database.migrate();
  await seedStaticData(database.db);
  const seeding = performance.now();
  await seedSites(database);
  const seeded = performance.now() - seeding;
  const total = await database.db.$count(sites);
  console.log(`\n${label}: ${total.toLocaleString('en-US')} sites seeded in ${(seeded / 1000).toFixed(1)} s`);

  let met = true;
  for (const zip of ORIGINS) {
    const query = () => alertReach(database.db, zip);
    for (let i = 0; i < 10; i++) await query();
    const times: number[] = [];
    const cpu = process.cpuUsage();
    let found = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      found = (await query()).length;
      times.push(performance.now() - started);
    }
    const { user, system } = process.cpuUsage(cpu);
    times.sort((a, b) => a - b);
    const [p50, p95, p99] = [50, 95, 99].map((p) => percentile(times, p).toFixed(2));
    met &&= Number(p95) < TARGET_P95_MS;
    // PGlite runs in this process, so its CPU time per query is what the query costs on an idle machine.
    const ownCpu = database.kind === 'pglite' ? `; CPU ${((user + system) / 1000 / RUNS).toFixed(2)} ms a query` : '';
    console.log(`  from ${zip}: ${found.toLocaleString('en-US')} recipients within ${RADIUS_MILES} miles; p50 ${p50} ms, p95 ${p95} ms, p99 ${p99} ms (${RUNS} runs)${ownCpu}`);
  }
  const cores = availableParallelism();
  console.log(`  target p95 < ${TARGET_P95_MS} ms -> ${met ? 'met' : 'NOT met'} (load average ${loadavg()[0]!.toFixed(1)} on ${cores} cores)`);
}

await onEachDatabase('sites', measure);
