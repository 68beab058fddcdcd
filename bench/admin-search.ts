// The administrators' search (admin-search) in a registry of 1,000,000 pets with their owners: a pet
// by chip, and accounts by an owner's name, a pet's name, an e-mail or a phone typed as people type
// it, each through the same service functions the routes call. On PGlite (a temporary folder) and,
// when DATABASE_URL is given, on that PostgreSQL server (in a database created for the run and
// dropped after it).
// Run: npm run bench:admin-search   (BENCH_PETS=1000000, BENCH_RUNS=100 by default)
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type DatabaseHandle } from '../server/src/db/client.js';
import { seedStaticData } from '../server/src/db/seed.js';
import { createAdminSearch, userSearchStatement } from '../server/src/modules/admin/search.js';
import { onEachDatabase } from './directory.js';

const PETS = Number(process.env.BENCH_PETS ?? 1_000_000);
const RUNS = Number(process.env.BENCH_RUNS ?? 100);
/** Seven owners for every ten pets: most have one pet, some two or three. */
const OWNERS = Math.ceil(PETS * 0.7);
const TARGETS_MS = { chip: 10, other: 100 };

const FIRST_NAMES = `James Mary Robert Patricia John Jennifer Michael Linda David Elizabeth William Barbara Richard Susan Joseph Jessica
  Thomas Sarah Charles Karen Christopher Lisa Daniel Nancy Matthew Betty Anthony Margaret Mark Sandra Donald Ashley Steven Kimberly Paul
  Emily Andrew Donna Joshua Michelle Kenneth Carol Kevin Amanda Brian Dorothy George Melissa Timothy Deborah Ronald Stephanie Edward
  Rebecca Jason Sharon Jeffrey Laura Ryan Cynthia Jacob Kathleen Gary Amy Nicholas Angela Eric Shirley Jonathan Anna Stephen Brenda Larry
  Pamela Justin Emma Scott Nicole Brandon Helen Benjamin Samantha Samuel Katherine Gregory Christine Alexander Debra Frank Rachel Patrick
  Carolyn Raymond Janet Jack Catherine Dennis Maria Jerry Heather Tyler Diane`.split(/\s+/);
const LAST_NAMES = `Smith Johnson Williams Brown Jones Garcia Miller Davis Rodriguez Martinez Hernandez Lopez Gonzalez Wilson Anderson
  Thomas Taylor Moore Jackson Martin Lee Perez Thompson White Harris Sanchez Clark Ramirez Lewis Robinson Walker Young Allen King Wright
  Scott Torres Nguyen Hill Flores Green Adams Nelson Baker Hall Rivera Campbell Mitchell Carter Roberts Gomez Phillips Evans Turner Diaz
  Parker Cruz Edwards Collins Reyes Stewart Morris Morales Murphy Cook Rogers Gutierrez Ortiz Morgan Cooper Peterson Bailey Reed Kelly
  Howard Ramos Kim Cox Ward Richardson Watson Brooks Chavez Wood James Bennett Gray Mendoza Ruiz Hughes Price Alvarez Castillo Sanders
  Patel Myers Long Ross Foster Jimenez Powell Jenkins Perry Russell Sullivan Bell Coleman Butler Henderson Barnes Gonzales Fisher Vasquez
  Simmons Romero Jordan Patterson Alexander Hamilton Graham Reynolds Griffin Wallace Moreno West Cole Hayes Bryant Herrera Gibson Ellis
  Tran Medina Aguilar Stevens Murray Ford Castro Marshall Owens Harrison Fernandez McDonald Woods Washington Kennedy Wells Vargas Henry
  Chen Freeman Webb Tucker Guzman Burns Crawford Olson Simpson Porter Hunter Gordon Mendez Silva Shaw Snyder Mason Dixon Munoz Hunt Hicks
  Holmes Palmer Wagner Black Robertson Boyd Rose Stone Salazar Fox Warren Mills Meyer Rice Schmidt Garza Daniels Ferguson Nichols Stephens
  Soto Weaver Ryan Gardner Payne Grant Dunn Kowalski Nakamura Okafor Lindqvist Haddad Brennan Petrov Novak Dubois Rossi Yamamoto`.split(/\s+/);
const PET_NAMES = `Bella Luna Charlie Lucy Max Bailey Cooper Daisy Sadie Molly Buddy Lola Stella Tucker Bentley Zoey Harley Maggie Riley
  Bear Sophie Duke Jax Oliver Chloe Penny Lily Winston Rocky Gracie Milo Toby Jack Coco Teddy Nala Ruby Rosie Leo Roxy Dexter Louie Zeus
  Murphy Gus Ellie Finn Piper Ollie Biscuit Pepper Ginger Shadow Oreo Simba Cleo Mochi Kiki Ziggy Pumpkin Peanut Waffles Noodle Pickles
  Marley Hazel Willow Koda Bruno Diesel Hank Otis Rufus Baxter Moose Ranger Scout Sunny Maple Olive Honey Juniper Clover Aspen Sage`.split(/\s+/);
const AREA_CODES = `212 310 312 314 404 415 469 512 602 617 702 713 720 786 801 813 816 832 901 913 919 952 972 314 636 618 217 573`.split(/\s+/);

const sqlList = (values: string[]) => sql.raw(`array[${values.map((v) => `'${v}'`).join(', ')}]`);

/**
 * Drops the named indexes, runs the load, and builds them again from their own definitions: a bulk
 * load followed by CREATE INDEX is how a large registry would be restored, and much faster than
 * filling trigram indexes row by row.
 */
async function withIndexesRebuilt(database: DatabaseHandle, names: string[], load: () => Promise<void>) {
  const definitions = await queryRows<{ indexname: string; indexdef: string }>(
    database.db,
    sql`select indexname, indexdef from pg_indexes where indexname in (${sql.join(names.map((n) => sql`${n}`), sql`, `)})`,
  );
  for (const { indexname } of definitions) await database.db.execute(sql.raw(`drop index "${indexname}"`));
  await load();
  for (const { indexdef } of definitions) await database.db.execute(sql.raw(indexdef));
}

/**
 * OWNERS owners and PETS pets in three statements: names drawn from common US first and last names,
 * e-mails of many domains, phones stored as sign-up stores them (+1…) and, one in four, as older
 * records and imports wrote them; pets named from common pet names, nine in ten chipped, one in a
 * hundred removed.
 */
async function seedRegistry(database: DatabaseHandle) {
  const { db } = database;
  await db.execute(sql`
    insert into users (email, first_name, last_name, phone_number, address1, city, zipcode)
    select lower(f) || '.' || lower(l) || i || '@' || (array['example.com', 'mail.example.org', 'example.net', 'pets.example.com'])[1 + h % 4],
      f, l,
      case h % 8
        when 0 then '(' || area || ') ' || exchange || '-' || line
        when 1 then area || '.' || exchange || '.' || line
        else '+1' || area || exchange || line
      end,
      (h % 9000 + 100) || ' Main St', 'Saint Louis', '63101'
    from (
      select i, h,
        (${sqlList(FIRST_NAMES)})[1 + h % ${FIRST_NAMES.length}] as f,
        (${sqlList(LAST_NAMES)})[1 + (h / 7) % ${LAST_NAMES.length}] as l,
        (${sqlList(AREA_CODES)})[1 + (h / 11) % ${AREA_CODES.length}] as area,
        (200 + (h / 13) % 800)::text as exchange,
        lpad(((h / 17) % 10000)::text, 4, '0') as line
      from (select i, abs(hashtext('owner ' || i)) as h from generate_series(1, ${OWNERS}) i) drawn
    ) owners`);
  await db.execute(sql`
    insert into pets (user_id, name, is_active, deleted_at)
    select u.id, (${sqlList(PET_NAMES)})[1 + abs(hashtext('pet ' || i)) % ${PET_NAMES.length}], i % 3 <> 0, case when i % 100 = 0 then now() end
    from generate_series(1, ${PETS}) i
    join (select id, row_number() over (order by id) as n from users) u on u.n = 1 + (i - 1) % ${OWNERS}`);
  await db.execute(sql`
    insert into chips (pet_id, chip_id, is_active)
    select id, (985000000000000 + id)::text, is_active from pets where id % 10 <> 0`);
  await db.execute(sql`analyze users`);
  await db.execute(sql`analyze pets`);
  await db.execute(sql`analyze chips`);
}

/** The indexes a statement's plan reads, from EXPLAIN: proof that each search is served by its index. */
async function indexesUsed(database: DatabaseHandle, statement: SQL): Promise<string> {
  const plan = await queryRows<{ 'QUERY PLAN': string }>(database.db, sql`explain ${statement}`);
  const names = new Set(plan.flatMap((line) => [...line['QUERY PLAN'].matchAll(/(?:Index|Index Only) Scan(?: Backward)? using (\w+)|Bitmap Index Scan on (\w+)/g)].map((m) => m[1] ?? m[2]!)));
  return names.size ? [...names].join(', ') : 'no index';
}

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function measure(label: string, database: DatabaseHandle) {
  await database.migrate();
  await seedStaticData(database.db);
  const seeding = performance.now();
  await withIndexesRebuilt(
    database,
    ['users_name_trgm_idx', 'users_email_trgm_idx', 'users_phone_digits_idx', 'users_email_lower_idx', 'pets_name_trgm_idx', 'pets_user_idx', 'chips_chip_id_idx', 'chips_pet_idx'],
    () => seedRegistry(database),
  );
  const seconds = ((performance.now() - seeding) / 1000).toFixed(1);
  console.log(`\n${label}: ${PETS.toLocaleString('en-US')} pets of ${OWNERS.toLocaleString('en-US')} owners seeded and indexed in ${seconds} s`);

  const search = createAdminSearch({ db: database.db });
  // Real records to look for, spread over the registry: each run searches the next one.
  const samples = await queryRows<{ chip_id: string; first_name: string; last_name: string; email: string; phone_number: string; pet_name: string }>(
    database.db,
    sql`select c.chip_id, u.first_name, u.last_name, u.email, u.phone_number, p.name as pet_name
      from pets p join users u on u.id = p.user_id join chips c on c.pet_id = p.id
      where p.id % ${Math.max(1, Math.floor(PETS / 200))} = 7 limit 200`,
  );
  const sample = (i: number) => samples[i % samples.length]!;
  const digitsOf = (i: number) => sample(i).phone_number.replace(/\D/g, '').slice(-10);
  /** The account searches: what an administrator types, for the i-th sample. */
  const terms: [string, (i: number) => string][] = [
    ['full name', (i) => `${sample(i).first_name} ${sample(i).last_name}`],
    ['last name', (i) => sample(i).last_name],
    ['pet name', (i) => sample(i).pet_name],
    ['e-mail', (i) => sample(i).email.toUpperCase()],
    ['part of an e-mail', (i) => sample(i).email.split('@')[0]!],
    ['phone (xxx) xxx-xxxx', (i) => `(${digitsOf(i).slice(0, 3)}) ${digitsOf(i).slice(3, 6)}-${digitsOf(i).slice(6)}`],
    ['phone +1 xxx.xxx.xxxx', (i) => `+1 ${digitsOf(i).slice(0, 3)}.${digitsOf(i).slice(3, 6)}.${digitsOf(i).slice(6)}`],
  ];
  const chipQuery = (i: number) => sql`select c.id, c.pet_id from chips c join pets p on p.id = c.pet_id where c.chip_id = ${sample(i).chip_id}
    order by c.removed_at is not null, p.deleted_at is not null, c.created_at desc limit 1`;
  const cases: { name: string; target: number; run: (i: number) => Promise<number>; statement: (i: number) => SQL }[] = [
    {
      name: 'chip',
      target: TARGETS_MS.chip,
      run: async (i) => ((await search.petByMicrochip({ chip: sample(i).chip_id })).petId ? 1 : 0),
      statement: chipQuery,
    },
    ...terms.map(([name, term]) => ({
      name,
      target: TARGETS_MS.other,
      run: async (i: number) => (await search.users({ searchTerm: term(i), pageNumber: 1 })).total,
      statement: (i: number) => userSearchStatement({ searchTerm: term(i), pageNumber: 1 }),
    })),
  ];

  let met = true;
  for (const { name, target, run, statement } of cases) {
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
      `  ${name.padEnd(22)} p50 ${p50!.toFixed(2)} ms, p95 ${p95!.toFixed(2)} ms (target p95 < ${target} ms${p95! < target ? '' : ': NOT met'}); ${(found / RUNS).toFixed(1)} matches a search; indexes: ${await indexesUsed(database, statement(0))}`,
    );
  }
  console.log(`  targets ${met ? 'met' : 'NOT met'} (${RUNS} runs each; load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
}

await onEachDatabase('admin-search', measure);
