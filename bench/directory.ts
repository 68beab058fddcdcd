// The benchmarks' directory of pet-care professionals: 100,000 sites spread over the ZIP centres,
// denser in ten metro areas, mixed as a real directory is (kinds, sources, alerts on or off, e-mail or none).
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { sql } from 'drizzle-orm';
import { openDatabase, type DatabaseHandle } from '../server/src/db/client.js';
import { petAlerts, pets, users } from '../server/src/db/schema.js';

export const SITES = 100_000;

/** One 3-digit ZIP area of each of ten metros, which get a quarter of the sites on top of the spread. */
const METRO_AREAS = ['100', '606', '900', '770', '750', '191', '331', '941', '981', '021'];

/**
 * 100,000 sites in one statement. Each site picks a ZIP centre by a hash of its number: three in four
 * among all ZIP codes, one in four among the metro areas' ZIP codes; then a kind, a source, and
 * whether it is active, takes alerts and has an e-mail, as a real directory would mix them.
 */
export async function seedSites(database: DatabaseHandle) {
  await database.db.execute(sql`
    with everywhere as (
      select zip, city, state, latitude, longitude, row_number() over (order by zip) - 1 as n from zip_codes
    ),
    metro as (
      select zip, city, state, latitude, longitude, row_number() over (order by zip) - 1 as n
      from zip_codes where left(zip, 3) in (${sql.join(METRO_AREAS.map((area) => sql`${area}`), sql`, `)})
    ),
    sizes as (select (select count(*) from everywhere) as everywhere, (select count(*) from metro) as metro),
    drawn as (
      select i, abs(hashtext('site ' || i)) as h from generate_series(1, ${SITES}) i
    ),
    placed as (
      select drawn.i, drawn.h, coalesce(m.zip, e.zip) as zip, coalesce(m.city, e.city) as city, coalesce(m.state, e.state) as state,
        coalesce(m.latitude, e.latitude) as latitude, coalesce(m.longitude, e.longitude) as longitude
      from drawn cross join sizes
      left join metro m on drawn.i % 4 = 0 and m.n = drawn.h % sizes.metro
      left join everywhere e on drawn.i % 4 <> 0 and e.n = drawn.h % sizes.everywhere
    )
    insert into sites (name, practice_type, email, receives_alerts, is_active, address1, city, state, zip_code, latitude, longitude, source)
    select 'Bench Site ' || i,
      (array['Veterinary Care', 'Veterinary Care', 'Veterinary Care', 'Emergency Vet', 'Animal Shelter', 'Rescue', 'Animal Control', 'Groomer/Boarding'])[1 + h % 8],
      case when h % 10 = 0 then null else 'bench-' || i || '@example.org' end,
      h % 5 <> 0,
      h % 20 <> 0,
      (h % 9000 + 100) || ' Bench Street', city, state, zip,
      latitude + ((h / 7) % 1000 - 500) * 0.00002, longitude + ((h / 11) % 1000 - 500) * 0.00002,
      (array['import', 'admin', 'places', 'sample'])[1 + (h / 13) % 4]
    from placed`);
  // Fresh statistics, as autovacuum would gather them after a bulk load (PGlite has no autovacuum).
  await database.db.execute(sql`analyze sites`);
}

/**
 * Runs `measure` on PGlite in a temporary folder and, when DATABASE_URL is given, in a database created
 * on that server for the run and dropped afterwards.
 */
export async function onEachDatabase(tag: string, measure: (label: string, database: DatabaseHandle) => Promise<void>) {
  const dataDir = mkdtempSync(join(tmpdir(), `petreg-bench-${tag}-`));
  try {
    const embedded = await openDatabase({ dataDir: join(dataDir, 'db') });
    try {
      await measure('PGlite', embedded);
    } finally {
      await embedded.close();
    }
  } finally {
    rmSync(dataDir, { recursive: true, force: true });
  }

  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return;
  const name = `petreg_bench_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: serverUrl });
  await admin.connect();
  await admin.query(`create database ${name}`);
  try {
    const url = new URL(serverUrl);
    url.pathname = `/${name}`;
    const server = await openDatabase({ url: url.toString(), dataDir: null });
    try {
      await measure('PostgreSQL server', server);
    } finally {
      await server.close();
    }
  } finally {
    await admin.query(`drop database if exists ${name}`);
    await admin.end();
  }
}

/** A lost pet with a NEW alert waiting for payment, last seen in the ZIP. */
export async function newAlert(database: DatabaseHandle, zipCode: string, n: number): Promise<{ id: number; petId: number }> {
  const [owner] = await database.db
    .insert(users)
    .values({ email: `bench-owner-${n}-${Date.now()}@example.com`, firstName: 'Bench', lastName: 'Owner' })
    .returning({ id: users.id });
  const [pet] = await database.db.insert(pets).values({ userId: owner!.id, name: `Rex ${n}`, sex: 1, dob: '2020-01-01' }).returning({ id: pets.id });
  const [alert] = await database.db
    .insert(petAlerts)
    .values({ petId: pet!.id, status: 'NEW', missingDate: new Date(), zipCode, incidentDescription: 'Slipped the leash near the park.' })
    .returning({ id: petAlerts.id, petId: petAlerts.petId });
  return alert!;
}
