// Commands for operators: `npm run sweep` expires yearly registrations that were not renewed.
import { join } from 'node:path';
import { createMailer } from './adapters/mail/index.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, resolveJwtSecret } from './config.js';
import { openDatabase } from './db/client.js';

async function sweep() {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'db') });
  await database.migrate();
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'mail') });
  const app = await buildApp({ config, database, mailer, jwtSecret: resolveJwtSecret(config) });
  try {
    const expired = await app.payments.expireLapsedRegistrations();
    console.log(`${expired} yearly registration${expired === 1 ? '' : 's'} expired`);
  } finally {
    await app.close();
    await database.close();
  }
}

const command = process.argv[2];
if (command !== 'sweep') {
  console.error('usage: npm run sweep');
  process.exit(2);
}
sweep().catch((error: unknown) => {
  console.error(error instanceof ConfigError ? error.message : error);
  process.exit(1);
});
