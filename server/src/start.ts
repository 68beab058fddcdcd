// The portal's start, loaded by main.ts once V8's flag is set and a tick object is held.
import { join } from 'node:path';
import { API_BASE } from '@petreg/contract';
import { createMailer } from './adapters/mail/index.js';
import { createFileTexter } from './adapters/sms/index.js';
import { createTwilioTexter } from './adapters/sms/twilio.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, resolveJwtSecret, testPaymentsWarning } from './config.js';
import { DatabaseInUseError, openDatabase } from './db/client.js';
import { seedSampleSites, seedStaticData } from './db/seed.js';
import { serveBackups } from './modules/backups/socket.js';
import { ensureAdministrator } from './modules/users/bootstrap.js';
import { alertMailSettingsOf } from './modules/alerts/messages.js';
import { createAlertReplies } from './modules/relay/replies.js';
import { startWorker } from './worker/index.js';
import { preloadLibraries, PRELOAD_AFTER_MS } from './lazyLibraries.js';

/**
 * How long a stop waits for requests and e-mails in flight before the process exits anyway: within
 * `docker stop`'s 10 s grace (Kubernetes gives 30 s), so the process ends itself rather than being
 * killed, and a frozen database does not hold the exit. It was 1.8 s, which cut off requests still
 * answering (a statement may take 15 s; a sign-up on a busy machine, seconds) with no answer at all.
 * An idle portal exits at once: this is only the bound.
 */
const STOP_WITHIN_MS = 8000;

async function main() {
  const config = loadConfig();
  const jwtSecret = resolveJwtSecret(config);
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'db'), timeouts: config.databaseTimeouts, poolMode: config.databasePoolMode });
  await database.migrate();
  await seedStaticData(database.db);
  const samples = config.sampleSites ? await seedSampleSites(database.db) : 0;
  const admin = await ensureAdministrator(database.db, config.admin);

  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'mail') });
  const texter = config.twilio
    ? createTwilioTexter(config.twilio, `${config.publicUrl}${API_BASE}/sms/status`)
    : createFileTexter(join(config.dataDir, 'sms'));
  const app = await buildApp({ config, database, mailer, jwtSecret });
  // Replies to lost pet alert e-mails, relayed to the owner, when an inbound mail domain is set (its SMTP server loads only then).
  const inbound = config.inboundMail
    ? (await import('./modules/relay/listener.js')).createInboundMailListener({ settings: config.inboundMail, replies: createAlertReplies({ db: database.db, publicUrl: config.publicUrl }), log: app.log })
    : null;
  const stopWorker = startWorker(app, database.db, mailer, texter, alertMailSettingsOf(config, jwtSecret), config.foundReportEscalation, {
    publicUrl: config.publicUrl,
    secret: jwtSecret,
    registryName: config.registry.name,
    reconfirmMonths: config.contactReconfirmMonths,
  });

  let closing = false;
  const shutdown = async (signal: string) => {
    if (closing) return;
    closing = true;
    app.log.info(`${signal} received: finishing requests and e-mails in flight, handing back the e-mails not started, then closing the database`);
    setTimeout(() => {
      app.log.warn(`still busy ${STOP_WITHIN_MS} ms after ${signal}: exiting`);
      process.exit(0);
    }, STOP_WITHIN_MS).unref();
    await Promise.all([app.close(), stopWorker(), inbound?.close(), stopBackups()]);
    mailer.close?.();
    await database.close();
    process.exit(0);
  };
  // npm run db:backup asks the portal holding the embedded database for a consistent copy.
  const stopBackups = database.kind === 'pglite' ? await serveBackups(database, config.dataDir, app.log) : async () => {};
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));

  await app.listen({ port: config.port, host: config.host });
  await inbound?.listen();
  setTimeout(() => void preloadLibraries(app.log), PRELOAD_AFTER_MS).unref();
  const simulated = testPaymentsWarning(config);
  if (simulated) app.log.warn(simulated);
  if (admin?.generatedPassword) {
    console.log(`\nFirst administrator created: ${admin.email} / ${admin.generatedPassword}\nKeep this password; it is not shown again.\n`);
  }
  if (samples > 0) console.log(`Sample directory of ${samples} vets and shelters added (marked as samples; SAMPLE_SITES=false leaves it out).`);
  console.log(`Pet registry portal running at ${config.publicUrl} (${database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL server'})`);
}

main().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof DatabaseInUseError ? error.message : error);
  process.exit(1);
});
