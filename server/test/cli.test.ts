import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { verify } from '@node-rs/argon2';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { buildApp } from '../src/app.js';
import { loadConfig, resolveJwtSecret } from '../src/config.js';
import { openDatabase, type Database } from '../src/db/client.js';
import { passwordResetTokens, userSessions, users } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';

const execute = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');
const adminEmail = 'operator@example.com';

/** Runs `npm run admin -- …` as an operator would, against the portal's data folder. */
async function adminCommand(dataDir: string, args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...env };
  delete childEnv.DATABASE_URL;
  if (!env.ADMIN_PASSWORD) delete childEnv.ADMIN_PASSWORD;
  try {
    const { stdout, stderr } = await execute('node', ['--import', 'tsx', 'server/src/cli.ts', 'admin', ...args], { cwd: root, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function withDatabase<T>(dataDir: string, job: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: join(dataDir, 'db') });
  try {
    await database.migrate();
    return await job(database.db);
  } finally {
    await database.close();
  }
}

/** Signs in to the portal on the same data folder, as the running portal would answer, from `ip`. */
async function signIn(dataDir: string, password: string, ip: string): Promise<number> {
  const database = await openDatabase({ dataDir: join(dataDir, 'db') });
  const config = loadConfig({ DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
  const app = await buildApp({ config, database, mailer: createMailer({ from: config.mailFrom, outboxDir: join(dataDir, 'mail') }), jwtSecret: resolveJwtSecret(config), webRoot: '/nonexistent' });
  try {
    const answer = await app.inject({ method: 'POST', url: '/api/v2/Users/login', payload: { email: adminEmail, password }, remoteAddress: ip });
    return answer.statusCode;
  } finally {
    await app.close();
    await database.close();
  }
}

const adminRow = (db: Database) => db.select().from(users).where(eq(users.email, adminEmail)).then((rows) => rows[0]!);

// The command opens the embedded database in DATA_DIR as the portal does; one run covers it.
// Each test starts the command in a process of its own (tsx, PGlite); a busy CI machine needs minutes, not seconds.
describe.skipIf(process.env.TEST_DB === 'postgres')('npm run admin -- reset-password', { timeout: 180_000 }, () => {
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'petreg-cli-'));
    await withDatabase(dataDir, async (db) => {
      await ensureAdministrator(db, { email: adminEmail, password: 'Original#Pass1' });
      const admin = await adminRow(db);
      await db.insert(userSessions).values({ userId: admin.id, expiresAt: new Date(Date.now() + 3600_000) });
      await db.insert(passwordResetTokens).values({ userId: admin.id, tokenHash: 'outstanding', expiresAt: new Date(Date.now() + 3600_000) });
    });
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('prints a new password once, ends open sessions and voids outstanding reset links', async () => {
    const { code, stdout } = await adminCommand(dataDir, ['reset-password', 'Operator@Example.com']);
    expect(code).toBe(0);
    const printed = /New password for Operator@Example\.com: (\S+)/.exec(stdout)?.[1];
    expect(printed).toBeDefined();
    await withDatabase(dataDir, async (db) => {
      const admin = await adminRow(db);
      expect(await verify(admin.passwordHash!, printed!)).toBe(true);
      expect(await verify(admin.passwordHash!, 'Original#Pass1')).toBe(false);
      const sessions = await db.select().from(userSessions).where(eq(userSessions.userId, admin.id));
      expect(sessions.every((s) => s.revokedAt !== null)).toBe(true);
      const links = await db.select().from(passwordResetTokens).where(eq(passwordResetTokens.userId, admin.id));
      expect(links.every((l) => l.usedAt !== null)).toBe(true);
    });
  });

  it('sets the password given in ADMIN_PASSWORD when it meets the password rule', async () => {
    const weak = await adminCommand(dataDir, ['reset-password', adminEmail], { ADMIN_PASSWORD: 'weakpass' });
    expect(weak.code).toBe(2);
    expect(weak.stderr).toContain('ADMIN_PASSWORD: Must Contain 8 Characters, One Uppercase, One Lowercase, One Number and One Special Case Character');

    const chosen = await adminCommand(dataDir, ['reset-password', adminEmail], { ADMIN_PASSWORD: 'Chosen#Pass2' });
    expect(chosen.code).toBe(0);
    expect(chosen.stdout).toContain(`The password of ${adminEmail} is now the one in ADMIN_PASSWORD.`);
    await withDatabase(dataDir, async (db) => expect(await verify((await adminRow(db)).passwordHash!, 'Chosen#Pass2')).toBe(true));
  });

  it("lifts a stranger's hold on the account, so the administrator signs in from a new address", async () => {
    for (let i = 0; i < 11; i++) await signIn(dataDir, 'Wrong#Guess1', `10.60.0.${i}`);
    expect(await signIn(dataDir, 'Chosen#Pass2', '10.61.0.1')).toBe(429);
    const { code, stdout } = await adminCommand(dataDir, ['reset-password', adminEmail]);
    expect(code).toBe(0);
    const printed = /New password for \S+: (\S+)/.exec(stdout)![1]!;
    expect(await signIn(dataDir, printed, '10.61.0.1')).toBe(200);
  });

  it('refuses an e-mail that is not an administrator, and a missing e-mail, changing nothing', async () => {
    const before = await withDatabase(dataDir, async (db) => (await adminRow(db)).passwordHash);
    const unknown = await adminCommand(dataDir, ['reset-password', 'someone@example.com']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No administrator has the e-mail someone@example.com.');
    const missing = await adminCommand(dataDir, ['reset-password']);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('usage: npm run sweep | npm run admin -- reset-password EMAIL');
    await withDatabase(dataDir, async (db) => expect((await adminRow(db)).passwordHash).toBe(before));
  });
});
