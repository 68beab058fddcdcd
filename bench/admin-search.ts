// The administrators' search (admin-search) in a registry of 1,000,000 pets with their owners: a pet
// by chip, and accounts by an owner's name, a pet's name, an e-mail or a phone typed as people type
// it (and parts of names and addresses that match many), each through the same service functions the routes call. On PGlite (a temporary folder) and,
// when DATABASE_URL is given, on that PostgreSQL server (in a database created for the run and
// dropped after it).
// Run: npm run bench:admin-search   (BENCH_PETS=1000000, BENCH_RUNS=100 by default)
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { matchCountLimit } from '@petreg/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type DatabaseHandle } from '../server/src/db/client.js';
import { seedStaticData } from '../server/src/db/seed.js';
import { createAdminSearch, readUserSearch } from '../server/src/modules/admin/search.js';
import { onEachDatabase } from './directory.js';
import { indexesUsed, ownersOf, seedRegistry } from './registry.js';

const PETS = Number(process.env.BENCH_PETS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
const OWNERS = ownersOf(PETS);
const TARGETS_MS = { chip: 10, other: 100 };

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(label: string, database: DatabaseHandle) {
  await database.migrate();
  await seedStaticData(database.db);
  const seeding = performance.now();
  await seedRegistry(database, PETS);
  const seconds = ((performance.now() - seeding) / 1000).toFixed(1);
  console.log(`\n${label}: ${PETS.toLocaleString('en-US')} pets of ${OWNERS.toLocaleString('en-US')} owners seeded and indexed in ${seconds} s`);

  const search = createAdminSearch(database);
  // Real records to look for, spread over the registry: each run searches the next one.
  const samples = await queryRows<{ chip_id: string; first_name: string; last_name: string; email: string; phone_number: string; pet_name: string }>(
    database.db,
    sql`select c.chip_id, u.first_name, u.last_name, u.email, u.phone_number, p.name as pet_name
      from pets p join users u on u.id = p.user_id join chips c on c.pet_id = p.id
      where p.id % ${Math.max(1, Math.floor(PETS / 200))} = 7 order by p.id limit 200`,
  );
  const sample = (i: number) => samples[i % samples.length]!;
  const digitsOf = (i: number) => sample(i).phone_number.replace(/\D/g, '').slice(-10);
  /** The account searches: what an administrator types, for the i-th sample. */
  const terms: [string, (i: number) => string][] = [
    ['full name', (i) => `${sample(i).first_name} ${sample(i).last_name}`],
    ['first name', (i) => sample(i).first_name],
    ['last name', (i) => sample(i).last_name],
    ['last name, first 3', (i) => sample(i).last_name.slice(0, 3)],
    ['mail.example (1 in 4)', () => 'mail.example'],
    ['pet name', (i) => sample(i).pet_name],
    ['e-mail', (i) => sample(i).email.toUpperCase()],
    ['part of an e-mail', (i) => sample(i).email.split('@')[0]!],
    ['phone (xxx) xxx-xxxx', (i) => `(${digitsOf(i).slice(0, 3)}) ${digitsOf(i).slice(3, 6)}-${digitsOf(i).slice(6)}`],
    ['phone +1 xxx.xxx.xxxx', (i) => `+1 ${digitsOf(i).slice(0, 3)}.${digitsOf(i).slice(3, 6)}.${digitsOf(i).slice(6)}`],
  ];
  const chipQuery = (i: number) => sql`select c.id, c.pet_id from chips c join pets p on p.id = c.pet_id where c.chip_id = ${sample(i).chip_id}
    order by c.removed_at is not null, p.deleted_at is not null, c.created_at desc limit 1`;
  // Each case's plan, as the search runs it (on PGlite, the user search with sequential scans off for a term with a trigram).
  const cases: { name: string; target: number; run: (i: number) => Promise<number>; indexes: () => Promise<string> }[] = [
    {
      name: 'chip',
      target: TARGETS_MS.chip,
      run: async (i) => ((await search.petByMicrochip({ chip: sample(i).chip_id })).petId ? 1 : 0),
      indexes: () => indexesUsed(database.db, chipQuery(0)),
    },
    ...terms.map(([name, term]) => ({
      name,
      target: TARGETS_MS.other,
      run: async (i: number) => (await search.users({ searchTerm: term(i), pageNumber: 1 })).total,
      indexes: () => readUserSearch(database, { searchTerm: term(0), pageNumber: 1 }, indexesUsed),
    })),
  ];

  let met = true;
  for (const { name, target, run, indexes } of cases) {
    for (let i = 0; i < 10; i++) await run(i);
    const times: number[] = [];
    let found = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      found += await run(i);
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    const [p50, p95] = [50, 95].map((p) => percentile(times, p));
    met &&= p95! < target;
    console.log(
      `  ${name.padEnd(22)} p50 ${p50!.toFixed(2)} ms, p95 ${p95!.toFixed(2)} ms (target p95 < ${target} ms${p95! < target ? '' : ': NOT met'}); ${(found / RUNS).toFixed(1)} matches a search (counted up to ${matchCountLimit}); indexes: ${await indexes()}`,
    );
  }
  console.log(`  targets ${met ? 'met' : 'NOT met'} (${RUNS} runs each; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
}

await onEachDatabase('admin-search', measure);
