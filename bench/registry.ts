// The benchmarks' registry of pets and owners: names drawn from common US first and last names,
// e-mails, phones stored several ways, chips; loaded in a few statements and indexed after.
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type DatabaseHandle, type Transaction } from '../server/src/db/client.js';

/** Seven owners for every ten pets: most have one pet, some two or three. */
export const ownersOf = (pets: number) => Math.ceil(pets * 0.7);

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
 * Seven owners for every ten pets, in three statements: names drawn from common US first and last names,
 * e-mails of many domains, phones stored as sign-up stores them (+1…) and, one in four, as older
 * records and imports wrote them; pets named from common pet names, nine in ten chipped, one in a
 * hundred removed.
 */
async function insertRegistry(database: DatabaseHandle, pets: number) {
  const owners = ownersOf(pets);
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
      from (select i, abs(hashtext('owner ' || i)) as h from generate_series(1, ${owners}) i) drawn
    ) owners`);
  await db.execute(sql`
    insert into pets (user_id, name, is_active, deleted_at)
    select u.id, (${sqlList(PET_NAMES)})[1 + abs(hashtext('pet ' || i)) % ${PET_NAMES.length}], i % 3 <> 0, case when i % 100 = 0 then now() end
    from generate_series(1, ${pets}) i
    join (select id, row_number() over (order by id) as n from users) u on u.n = 1 + (i - 1) % ${owners}`);
  await db.execute(sql`
    insert into chips (pet_id, chip_id, is_active)
    select id, (985000000000000 + id)::text, is_active from pets where id % 10 <> 0`);
}

/** The indexes a statement's plan reads, from EXPLAIN: proof that each search is served by its index. */
export async function indexesUsed(db: Database | Transaction, statement: SQL): Promise<string> {
  const plan = await queryRows<{ 'QUERY PLAN': string }>(db, sql`explain ${statement}`);
  const names = new Set(plan.flatMap((line) => [...line['QUERY PLAN'].matchAll(/(?:Index|Index Only) Scan(?: Backward)? using (\w+)|Bitmap Index Scan on (\w+)/g)].map((m) => m[1] ?? m[2]!)));
  return names.size ? [...names].join(', ') : 'no index';
}


/** The indexes the load fills: dropped before it and built after it. */
const registryIndexes = [
  'users_name_trgm_idx',
  'users_email_trgm_idx',
  'users_phone_digits_idx',
  'users_email_lower_idx',
  'pets_name_trgm_idx',
  'pets_user_idx',
  'chips_chip_id_idx',
  'chips_pet_idx',
];

/** `pets` pets with their owners and chips, indexed, with fresh statistics (as autovacuum would gather them after a bulk load). */
export async function seedRegistry(database: DatabaseHandle, pets: number) {
  await withIndexesRebuilt(database, registryIndexes, () => insertRegistry(database, pets));
  for (const table of ['users', 'pets', 'chips']) await database.db.execute(sql.raw(`analyze ${table}`));
}
