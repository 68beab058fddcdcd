// Commands for operators:
//   npm run sweep                              expires yearly registrations that were not renewed
//   npm run admin -- reset-password EMAIL      gives an administrator a new password (ADMIN_PASSWORD, or generated)
//   npm run storage:copy-to-s3                 copies the images under DATA_DIR/uploads to the S3_BUCKET (skips those there)
import { join } from 'node:path';
import { newPasswordField } from '@petreg/contract';
import type { FastifyInstance } from 'fastify';
import { createMailer } from './adapters/mail/index.js';
import { uploadsDir } from './adapters/storage/configured.js';
import { copyToBucket } from './adapters/storage/copyToBucket.js';
import { createBucketStorage } from './adapters/storage/s3.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, resolveJwtSecret } from './config.js';
import { DatabaseInUseError, openDatabase, type DatabaseHandle } from './db/client.js';
import { resetAdministratorPassword } from './modules/users/bootstrap.js';
import { clearAccountAttempts } from './modules/users/signIn.js';

const usage = 'usage: npm run sweep | npm run admin -- reset-password EMAIL | npm run storage:copy-to-s3';

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

/** Copies the images stored on disk before the bucket was set; needs no database. */
async function copyImagesToBucket() {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  if (!config.s3) throw new UsageError('S3_BUCKET is not set: set the bucket\'s settings (see the README) before copying the images to it.');
  const counts = await copyToBucket(uploadsDir(config), createBucketStorage(config.s3));
  const images = (n: number) => `${n} image${n === 1 ? '' : 's'}`;
  console.log(`${images(counts.copied)} copied to ${config.s3.bucket}, ${images(counts.present)} already there, ${counts.failed} failed`);
  if (counts.failed) {
    const cause = counts.firstError instanceof Error ? (counts.firstError.cause ?? counts.firstError) : counts.firstError;
    console.error(`The first failure: ${cause instanceof Error ? cause.message : String(cause)}\nRun the command again: it copies only what is not in the bucket yet.`);
    process.exitCode = 1;
  }
}

const [command, ...args] = process.argv.slice(2);
const commands: Record<string, () => Promise<void>> = {
  sweep,
  'storage:copy-to-s3': copyImagesToBucket,
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
