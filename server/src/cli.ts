// Commands for operators:
//   npm run sweep                              expires yearly registrations that were not renewed
//   npm run admin -- reset-password EMAIL      gives an administrator a new password (ADMIN_PASSWORD, or generated)
import { join } from 'node:path';
import { newPasswordField } from '@petreg/contract';
import type { FastifyInstance } from 'fastify';
import { createMailer } from './adapters/mail/index.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, resolveJwtSecret } from './config.js';
import { DatabaseInUseError, openDatabase, type DatabaseHandle } from './db/client.js';
import { resetAdministratorPassword } from './modules/users/bootstrap.js';
import { clearAccountAttempts } from './modules/users/signIn.js';

const usage = 'usage: npm run sweep | npm run admin -- reset-password EMAIL';

class UsageError extends Error {}

/** Runs one job against the configured database with the portal's own services, then closes both. */
async function withPortal(job: (app: FastifyInstance, database: DatabaseHandle, jwtSecret: string) => Promise<void>) {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'db') });
  await database.migrate();
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, outboxDir: join(config.dataDir, 'mail') });
  const jwtSecret = resolveJwtSecret(config);
  const app = await buildApp({ config, database, mailer, jwtSecret });
  try {
    await job(app, database, jwtSecret);
  } finally {
    await app.close();
    await database.close();
  }
}

const sweep = () =>
  withPortal(async (app) => {
    const expired = await app.payments.expireLapsedRegistrations();
    console.log(`${expired} yearly registration${expired === 1 ? '' : 's'} expired`);
  });

async function resetPassword(email: string | undefined) {
  if (!email) throw new UsageError(usage);
  const chosen = process.env.ADMIN_PASSWORD || undefined;
  const strong = chosen === undefined ? null : newPasswordField.safeParse(chosen);
  if (strong && !strong.success) throw new UsageError(`ADMIN_PASSWORD: ${strong.error.issues[0]!.message}`);
  await withPortal(async (app, database, jwtSecret) => {
    const reset = await resetAdministratorPassword(database.db, email, chosen);
    if (!reset) throw new UsageError(`No administrator has the e-mail ${email}.`);
    // Signed-in copies of the account stop working, as after any password change; a stranger's
    // guesses no longer hold the administrator back from an address they never signed in from.
    await app.sessions.revokeAllFor(reset.userId);
    await clearAccountAttempts(database.db, jwtSecret, email);
    console.log(
      reset.generatedPassword
        ? `New password for ${email}: ${reset.generatedPassword}\nKeep this password; it is not shown again.`
        : `The password of ${email} is now the one in ADMIN_PASSWORD.`,
    );
  });
}

const [command, ...args] = process.argv.slice(2);
const commands: Record<string, () => Promise<void>> = {
  sweep,
  'admin reset-password': () => resetPassword(args[1]),
};
const run = commands[command === 'admin' ? `admin ${args[0]}` : (command ?? '')];
if (!run) {
  console.error(usage);
  process.exit(2);
}
run().catch((error: unknown) => {
  console.error(error instanceof ConfigError || error instanceof UsageError || error instanceof DatabaseInUseError ? error.message : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
