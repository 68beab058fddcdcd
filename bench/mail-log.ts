// The administrators' mail log searched by part of a recipient's address, in the alert e-mails of 40
// alerts from eight metro ZIP codes over the 100,000 sites of bench:sites (some 90,000 e-mails to some
// 18,000 addresses): part of one address, and a part every address holds (every e-mail matches, and the
// newest page is sorted out of all of them). No target: the figures are for comparing one build with another.
// On PGlite (a temporary folder) and, when DATABASE_URL is given, on that PostgreSQL server.
// Run: npm run bench:mail-log
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { min } from 'drizzle-orm';
import type { DatabaseHandle } from '../server/src/db/client.js';
import { alertEmails } from '../server/src/db/schema.js';
import { seedStaticData } from '../server/src/db/seed.js';
import { findZip } from '../server/src/geography.js';
import { createMailLog } from '../server/src/modules/admin/mailLog.js';
import { writeAlertRecipients } from '../server/src/modules/alerts/recipients.js';
import { newAlert, onEachDatabase, seedSites } from './directory.js';

const ORIGINS = ['10001', '60601', '90012', '77002', '75201', '19103', '33101', '94103'];
const ALERTS_PER_ORIGIN = 5;
const RUNS = 15;
const alertMail = { publicUrl: 'https://registry.example', supportPhone: '(800) 555-0142', mailFrom: 'alerts@registry.example', inboundMailDomain: null, secret: 'bench' };

async function measure(label: string, database: DatabaseHandle) {
  await database.migrate();
  await seedStaticData(database.db);
  await seedSites(database);
  let n = 0;
  for (const zip of ORIGINS) {
    const centre = await findZip(database.db, zip);
    for (let i = 0; i < ALERTS_PER_ORIGIN; i++) {
      const alert = await newAlert(database, zip, n++);
      await database.db.transaction((tx) => writeAlertRecipients(tx, alert, centre, new Date()));
    }
  }
  const mails = await database.db.$count(alertEmails);
  const [first] = await database.db.select({ recipient: min(alertEmails.recipient) }).from(alertEmails);
  const addresses = (await database.db.selectDistinct({ recipient: alertEmails.recipient }).from(alertEmails)).length;
  console.log(`\n${label}: ${mails.toLocaleString('en-US')} alert e-mails to ${addresses.toLocaleString('en-US')} addresses`);

  const log = createMailLog({ database, alertMail, forget: () => {} });
  const searches = [
    ['part of one address', first!.recipient!.slice(2, 12)],
    ['a part every address holds', 'example'],
    ['no search (the newest page)', ''],
  ] as const;
  for (const [name, query] of searches) {
    // The first search after the fan-outs gathers the addresses' statistics on PGlite (the mail log's list).
    const firstStarted = performance.now();
    await log.list({ query, page: 1 });
    const firstMs = performance.now() - firstStarted;
    const times: number[] = [];
    let total = 0;
    for (let i = 0; i < RUNS; i++) {
      const started = performance.now();
      total = (await log.list({ query, page: 1 })).total;
      times.push(performance.now() - started);
    }
    times.sort((a, b) => a - b);
    console.log(`  ${name} ("${query}", ${total} counted): first ${firstMs.toFixed(1)} ms, then median ${times[Math.floor(RUNS / 2)]!.toFixed(1)} ms, worst ${times.at(-1)!.toFixed(1)} ms (${RUNS} runs)`);
  }
  console.log(`  (load average ${loadavg()[0]!.toFixed(1)})`);
}

await onEachDatabase('mail-log', measure);
