// Commands for operators:
//   npm run sweep                              expires yearly registrations that were not renewed
//   npm run admin -- reset-password EMAIL      gives an administrator a new password (ADMIN_PASSWORD, or generated)
//   npm run storage:copy-to-s3                 copies the images under DATA_DIR/uploads to the S3_BUCKET (skips those there)
//   npm run db:backup [-- FILE]                backs the embedded database and the uploads up, also while the portal runs
//   npm run db:restore -- FILE [--force]       restores such a backup into DATA_DIR (a new one, or replaced with --force)
import { createWriteStream, existsSync } from 'node:fs';
import { rename, rm, stat } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { createGzip } from 'node:zlib';
import { newPasswordField } from '@petreg/contract';
import type { FastifyInstance } from 'fastify';
import { createMailer } from './adapters/mail/index.js';
import { uploadsDir } from './adapters/storage/configured.js';
import { copyToBucket } from './adapters/storage/copyToBucket.js';
import { createBucketStorage } from './adapters/storage/s3.js';
import { buildApp } from './app.js';
import { ConfigError, loadConfig, resolveJwtSecret } from './config.js';
import { DatabaseInUseError, openDatabase, type DatabaseHandle } from './db/client.js';
import { lockDataDir } from './db/dataDirLock.js';
import { BackupError, backupBlocks, readBackup, restoreBackup } from './modules/backups/service.js';
import { backupFromRunningPortal } from './modules/backups/socket.js';
import { resetAdministratorPassword } from './modules/users/bootstrap.js';
import { clearAccountAttempts } from './modules/users/signIn.js';

const usage =
  'usage: npm run sweep | npm run admin -- reset-password EMAIL | npm run storage:copy-to-s3 | npm run db:backup [-- FILE] | npm run db:restore -- FILE [--force]';

class UsageError extends Error {}

/** Runs one job against the configured database with the portal's own services, then closes both. */
async function withPortal(job: (app: FastifyInstance, database: DatabaseHandle, jwtSecret: string) => Promise<void>) {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  const database = await openDatabase({ url: config.databaseUrl, dataDir: join(config.dataDir, 'db'), poolMode: config.databasePoolMode });
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

/** A file the operator named, from the folder `npm run` was started in (npm runs scripts from the project's root). */
const operatorsFile = (file: string) => resolve(process.env.INIT_CWD ?? process.cwd(), file);

/** The embedded database's settings, or a refusal naming the server's own tools. */
function embeddedDataDir(serversWay: string): string {
  const config = loadConfig({ ...process.env, LOG_LEVEL: 'warn' });
  if (config.databaseUrl) {
    throw new UsageError(`DATABASE_URL is set: the database is on a PostgreSQL server, ${serversWay} (see "Backups" in the README). Uploaded images are files under DATA_DIR/uploads (or in the bucket), backed up with the server's other files.`);
  }
  return config.dataDir;
}

/** The backup's tar blocks: from the running portal when one holds the data folder, else from the folder itself. */
async function writeBackup(dataDir: string, into: string) {
  const fromPortal = await backupFromRunningPortal(dataDir);
  if (fromPortal) {
    await pipeline(fromPortal, createGzip(), createWriteStream(into, { mode: 0o600 })).catch((error: unknown) => {
      throw new BackupError(`The running portal did not finish the backup (its log says why): ${(error as Error).message}`);
    });
    return;
  }
  if (!existsSync(join(dataDir, 'db', 'PG_VERSION'))) throw new BackupError(`There is no embedded database in ${dataDir} to back up.`);
  const database = await openDatabase({ dataDir: join(dataDir, 'db') });
  try {
    await pipeline(Readable.from(await backupBlocks(database, dataDir)), createGzip(), createWriteStream(into, { mode: 0o600 }));
  } finally {
    await database.close();
  }
}

async function backup(file: string | undefined) {
  const dataDir = embeddedDataDir('back it up with pg_dump -Fc, or continuously with WAL archiving for point-in-time recovery');
  const into = operatorsFile(file ?? `petreg-backup-${new Date().toISOString().replace(/[:.]/g, '-')}.tar.gz`);
  if (existsSync(into)) throw new UsageError(`${into} exists already: name a new file.`);
  // Written aside and read back through before it takes its name: a file named as a backup is a whole one.
  const partial = `${into}.partial`;
  try {
    await writeBackup(dataDir, partial);
    const manifest = await readBackup(partial);
    await rename(partial, into);
    const megabytes = ((await stat(into)).size / 1e6).toFixed(1);
    console.log(`Backup written to ${into} (${megabytes} MB): the database at ${manifest.migrations} migrations and ${manifest.uploads} uploaded files.`);
  } finally {
    await rm(partial, { force: true });
  }
}

async function restore(file: string | undefined, flags: string[]) {
  if (!file || flags.some((flag) => flag !== '--force')) throw new UsageError(usage);
  const dataDir = embeddedDataDir('restore it with pg_restore (or the server\'s point-in-time recovery)');
  const from = operatorsFile(file);
  // Held throughout: neither a portal nor another command opens the folder while it is replaced.
  const release = await lockDataDir(join(dataDir, 'db'));
  try {
    const manifest = await restoreBackup(from, dataDir, flags.includes('--force'));
    console.log(`Restored ${from} into ${dataDir}: the database of ${manifest.createdAt} at ${manifest.migrations} migrations and ${manifest.uploads} uploaded files. Start the portal on this DATA_DIR.`);
  } finally {
    await release();
  }
}

const [command, ...args] = process.argv.slice(2);
const commands: Record<string, () => Promise<void>> = {
  sweep,
  'storage:copy-to-s3': copyImagesToBucket,
  'admin reset-password': () => resetPassword(args[1]),
  'db:backup': () => backup(args[0]),
  'db:restore': () => restore(args[0], args.slice(1)),
};
const run = commands[command === 'admin' ? `admin ${args[0]}` : (command ?? '')];
if (!run) {
  console.error(usage);
  process.exit(2);
}
run().catch((error: unknown) => {
  const told = [ConfigError, UsageError, DatabaseInUseError, BackupError].some((kind) => error instanceof kind);
  console.error(told ? (error as Error).message : error);
  process.exit(error instanceof UsageError ? 2 : 1);
});
