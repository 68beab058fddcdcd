// The bulk shelter upload (POST admin/bulk-pet-upload): a CSV of BENCH_ROWS pets (10,000 by default,
// the target being 30 s on PGlite), three in four with a chip, half of them with an owner (four
// pets an owner, each owner a new account invited by e-mail), the rest to the shelter. Runs it
// through the upload service on PGlite (a temporary folder) and, when DATABASE_URL is given, on that
// PostgreSQL server (in a database created for the run and dropped after it); then uploads the same
// file again, which must register nothing.
// Run: npm run bench:bulk-upload   (BENCH_ROWS=10000 by default)
import { randomUUID } from 'node:crypto';
import { availableParallelism, loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { petUploadColumns, type PetUploadResult } from '@petreg/contract';
import type { DatabaseHandle } from '../server/src/db/client.js';
import { pets, users } from '../server/src/db/schema.js';
import { seedStaticData } from '../server/src/db/seed.js';
import { createBulkPetUpload } from '../server/src/modules/admin/bulkUpload.js';
import { onEachDatabase } from './directory.js';

const ROWS = Number(process.env.BENCH_ROWS ?? 10_000);
const TARGET_SECONDS = 30;

function pet(i: number): Record<(typeof petUploadColumns)[number], string> {
  const dog = i % 2 === 0;
  const chipped = i % 4 !== 3;
  const owned = i % 2 === 1;
  const owner = Math.floor(i / 8);
  return {
    petName: `Pet ${i}`,
    species: dog ? 'Dog' : 'Cat',
    breed: dog ? 'Labrador Retriever;Beagle' : 'Domestic Shorthair',
    sex: ['Male', 'Female', ''][i % 3]!,
    dob: `20${String(10 + (i % 14)).padStart(2, '0')}-0${1 + (i % 9)}-1${i % 10}`,
    chipId: chipped ? `985${String(i).padStart(12, '0')}` : '',
    chipBrand: chipped ? 'HomeAgain' : '',
    weightLbs: String(5 + (i % 80)),
    notes: i % 5 === 0 ? 'Came in with a red collar, "friendly"' : '',
    ownerFirstName: owned ? 'Dana' : '',
    ownerLastName: owned ? `Owner${owner}` : '',
    ownerEmail: owned ? `owner${owner}@bench.example.org` : '',
    ownerPhone: owned ? '(314) 555-0178' : '',
    ownerAddress1: owned ? '1200 Market St' : '',
    ownerCity: owned ? 'Saint Louis' : '',
    ownerState: owned ? 'MO' : '',
    ownerZip: owned ? '63101' : '',
  };
}

const quoted = (cell: string) => (/[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell);

function file(): Buffer {
  const lines = [petUploadColumns.join(',')];
  for (let i = 0; i < ROWS; i++) {
    const row = pet(i);
    lines.push(petUploadColumns.map((column) => quoted(row[column])).join(','));
  }
  return Buffer.from(lines.join('\r\n'));
}

async function measure(label: string, database: DatabaseHandle) {
  await database.migrate();
  await seedStaticData(database.db);
  const [admin] = await database.db.insert(users).values({ email: 'root@bench.example.org', firstName: 'Registry', lastName: 'Staff', roles: ['admin'] }).returning({ id: users.id });
  const session = { userId: admin!.id, sessionId: randomUUID(), roles: ['admin' as const], expiresAt: new Date(Date.now() + 3600_000) };
  const upload = createBulkPetUpload({ db: database.db, publicUrl: 'http://localhost:3000', log: { error: (details, message) => console.error(message, details) } });
  const csv = file();
  console.log(`\n${label}: ${ROWS.toLocaleString('en-US')} rows, ${(csv.length / 1024 / 1024).toFixed(1)} MB`);
  let met = true;
  for (const round of ['first upload', 'same file again']) {
    const started = performance.now();
    const result: PetUploadResult = await upload.run(session, { file: csv, fileName: 'bench.csv', shelterEmail: 'intake@shelter.example.org' });
    const seconds = (performance.now() - started) / 1000;
    if (round === 'first upload') met = seconds < TARGET_SECONDS && result.counts.created === ROWS;
    const { created, skipped, error } = result.counts;
    console.log(`  ${round}: ${seconds.toFixed(1)} s, ${Math.round(ROWS / seconds).toLocaleString('en-US')} rows/s; created ${created}, skipped ${skipped}, error ${error}`);
  }
  console.log(`  pets in the registry: ${(await database.db.$count(pets)).toLocaleString('en-US')}`);
  console.log(`  target: ${ROWS.toLocaleString('en-US')} rows < ${TARGET_SECONDS} s -> ${met ? 'met' : 'NOT met'} (load average ${loadavg()[0]!.toFixed(1)} on ${availableParallelism()} cores)`);
}

await onEachDatabase('bulk-upload', measure);
