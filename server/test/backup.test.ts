import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { Readable } from 'node:stream';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { asc } from 'drizzle-orm';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openDatabase, type Database } from '../src/db/client.js';
import { chips, petAlerts, pets, users } from '../src/db/schema.js';
import { tarBlocks } from '../src/modules/backups/archive.js';
import { readBackup } from '../src/modules/backups/service.js';
import { alertKit } from './alertKit.js';
import { registerPet, signUpOwner, type TestContext } from './helpers.js';

const execute = promisify(execFile);
const root = resolve(import.meta.dirname, '../..');

/** Runs `npm run db:… -- args` as an operator would, on the data folder. */
async function command(name: 'db:backup' | 'db:restore', dataDir: string, args: string[], env: Record<string, string> = {}) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  try {
    const { stdout, stderr } = await execute('node', ['--import', 'tsx', 'server/src/cli.ts', name, ...args], { cwd: root, env: childEnv });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
  }
}

async function freePort(): Promise<number> {
  const server = createServer().listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as { port: number };
  server.close();
  return port;
}

/** The test helpers' `app.inject`, sent over HTTP to the running portal. */
function overHttp(base: string): FastifyInstance {
  const inject = async (options: InjectOptions) => {
    const body = options.payload === undefined ? undefined : JSON.stringify(options.payload);
    const response = await fetch(`${base}${options.url as string}`, {
      method: options.method,
      headers: { ...(options.headers as Record<string, string>), ...(body && { 'content-type': 'application/json' }) },
      body,
    });
    const text = await response.text();
    return { statusCode: response.status, json: () => JSON.parse(text) as unknown, headers: Object.fromEntries(response.headers) };
  };
  return { inject } as unknown as FastifyInstance;
}

async function withDatabase<T>(dataDir: string, job: (db: Database) => Promise<T>): Promise<T> {
  const database = await openDatabase({ dataDir: join(dataDir, 'db') });
  try {
    return await job(database.db);
  } finally {
    await database.close();
  }
}

/** The records a restore must bring back, as rows. */
const records = (db: Database) =>
  Promise.all([
    db.select().from(users).orderBy(asc(users.id)),
    db.select().from(pets).orderBy(asc(pets.id)),
    db.select().from(chips).orderBy(asc(chips.id)),
    db.select().from(petAlerts).orderBy(asc(petAlerts.id)),
  ]).then(([userRows, petRows, chipRows, alertRows]) => ({ users: userRows, pets: petRows, chips: chipRows, alerts: alertRows }));

/** Names, sizes and times of everything in a folder: what "changed nothing" compares. */
const listing = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .map((entry) => join(entry.parentPath, entry.name))
    .sort()
    .map((path) => `${path} ${statSync(path).size} ${statSync(path).mtimeMs}`);

// The portal runs as `npm start` runs it, in a process of its own on its own data folder; each command
// starts one more (tsx, PGlite): a busy machine needs minutes.
describe.skipIf(process.env.TEST_DB === 'postgres')('npm run db:backup and db:restore', { timeout: 600_000 }, () => {
  let folder: string;
  let liveDir: string;
  let portal: ChildProcess;
  let base: string;
  let backupFile: string;
  let restoredDir: string;
  const seeded = { emails: [] as string[], petIds: [] as number[], alertId: 0, image: '' };

  beforeAll(async () => {
    folder = mkdtempSync(join(tmpdir(), 'petreg-backup-'));
    liveDir = join(folder, 'live');
    const port = await freePort();
    base = `http://127.0.0.1:${port}`;
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATA_DIR: liveDir,
      PORT: String(port),
      HOST: '127.0.0.1',
      LOG_LEVEL: 'warn',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      ADMIN_EMAIL: 'operator@example.com',
      ADMIN_PASSWORD: 'Operator#Pass1',
    };
    delete env.DATABASE_URL;
    portal = spawn('node', ['--import', 'tsx', 'server/src/main.ts'], { cwd: root, env, stdio: 'ignore' });
    for (let waited = 0; ; waited += 500) {
      const up = await fetch(`${base}/api/v2/utilities/health-check`).then((r) => r.ok, () => false);
      if (up) break;
      if (waited > 300_000 || portal.exitCode !== null) throw new Error('the portal did not start');
      await new Promise((r) => setTimeout(r, 500));
    }

    // Accounts, pets, an uploaded photo and a paid lost pet alert (to the sample directory's vets), each through the running portal.
    const app = overHttp(base);
    const kit = alertKit(() => ({ app }) as TestContext);
    const lost = await kit.ownerWithLostPet();
    const alert = await kit.sendAndPay(lost.token, lost.pet.id);
    const other = await signUpOwner(app);
    const chipped = await registerPet(app, other.token);
    Object.assign(seeded, {
      emails: [lost.input.email, other.input.email, 'operator@example.com'],
      petIds: [lost.pet.id, chipped.id],
      alertId: alert.id,
      image: lost.pet.image!.split('/').pop()!,
    });
    expect(existsSync(join(liveDir, 'uploads', 'pet-images', seeded.image))).toBe(true);

    // The backup is taken while owners keep registering pets with photos.
    backupFile = join(folder, 'registry.tar.gz');
    let backingUp = true;
    const writes = (async () => {
      let count = 0;
      while (backingUp) {
        const more = await kit.ownerWithLostPet();
        expect(more.pet.image).toBeTruthy();
        count++;
      }
      return count;
    })();
    const backup = await command('db:backup', liveDir, [backupFile]);
    backingUp = false;
    expect(await writes).toBeGreaterThan(0);
    expect(backup.stderr).toBe('');
    expect(backup.stdout).toMatch(/Backup written to .*registry\.tar\.gz .*: the database at \d+ migrations and \d+ uploaded files\./);
    expect(backup.code).toBe(0);

    restoredDir = join(folder, 'restored');
    const restored = await command('db:restore', restoredDir, [backupFile]);
    expect(restored.stdout).toContain(`Restored ${backupFile} into ${restoredDir}`);
    expect(restored.code).toBe(0);
  }, 600_000);

  afterAll(async () => {
    if (portal.exitCode === null) {
      portal.kill('SIGTERM');
      await once(portal, 'exit');
    }
    rmSync(folder, { recursive: true, force: true });
  }, 60_000);

  it('refuses to restore into the folder the running portal holds, which keeps answering', async () => {
    const before = listing(join(liveDir, 'uploads'));
    const refused = await command('db:restore', liveDir, [backupFile, '--force']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`The embedded database in ${join(liveDir, 'db')} is in use by another process (is the portal running?).`);
    expect(listing(join(liveDir, 'uploads'))).toEqual(before);
    expect((await fetch(`${base}/api/v2/utilities/health-check`)).status).toBe(200);
  });

  it('refuses a corrupt, cut or foreign file with a clear error, changing nothing', async () => {
    const whole = readFileSync(backupFile);
    const foreign = gzipSync(Buffer.concat(await Readable.from(tarBlocks((async function* () {
      yield { name: 'notes.txt', data: Buffer.from('not a registry') };
    })())).toArray()));
    const files = {
      'random bytes': Buffer.from('PK\u0003\u0004 not a backup at all'),
      'the first half of a backup': whole.subarray(0, whole.length >> 1),
      'a tar of other files': foreign,
    };
    const restoredBefore = listing(restoredDir);
    for (const [what, bytes] of Object.entries(files)) {
      const file = join(folder, 'bad.tar.gz');
      writeFileSync(file, bytes);
      const fresh = join(folder, 'fresh');
      const intoFresh = await command('db:restore', fresh, [file]);
      expect(intoFresh.code, what).toBe(1);
      expect(intoFresh.stderr, what).toContain(`${file} is not a backup made by npm run db:backup (`);
      expect(intoFresh.stderr, what).toContain('). Nothing was changed.');
      expect(existsSync(join(fresh, 'db', 'PG_VERSION')), what).toBe(false);
      const overExisting = await command('db:restore', restoredDir, [file, '--force']);
      expect(overExisting.code, what).toBe(1);
      expect(listing(restoredDir), what).toEqual(restoredBefore);
    }

    const newer = join(folder, 'newer.tar.gz');
    const manifest = { format: 'pet-registry-backup', version: 1, createdAt: new Date().toISOString(), migrations: 9999, uploads: 0 };
    writeFileSync(newer, gzipSync(Buffer.concat(await Readable.from(tarBlocks((async function* () {
      yield { name: 'manifest.json', data: Buffer.from(JSON.stringify(manifest)) };
    })())).toArray())));
    const refused = await command('db:restore', restoredDir, [newer, '--force']);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toMatch(/newer\.tar\.gz was made by a newer version of the portal \(9999 migrations; this one has \d+\)\. Nothing was changed\./);
    expect(listing(restoredDir)).toEqual(restoredBefore);
  });

  it('refuses to restore over a folder that holds data unless told to replace it', async () => {
    const refused = await command('db:restore', restoredDir, [backupFile]);
    expect(refused.code).toBe(1);
    expect(refused.stderr).toContain(`${restoredDir} already holds a database. Restore into a new DATA_DIR, or add --force to replace what it holds.`);
  });

  it('explains pg_dump and point-in-time recovery for a PostgreSQL server instead of backing up', async () => {
    const answer = await command('db:backup', liveDir, [join(folder, 'server.tar.gz')], { DATABASE_URL: 'postgres://postgres@127.0.0.1:5432/test' });
    expect(answer.code).toBe(2);
    expect(answer.stderr).toContain('DATABASE_URL is set: the database is on a PostgreSQL server, back it up with pg_dump -Fc, or continuously with WAL archiving for point-in-time recovery');
    expect(existsSync(join(folder, 'server.tar.gz'))).toBe(false);
  });

  it('brings back every record and image as they were, and every photo the backed-up pets name', async () => {
    portal.kill('SIGTERM');
    await once(portal, 'exit');
    const live = await withDatabase(liveDir, records);
    const restored = await withDatabase(restoredDir, records);

    // What was written before the backup is there as it was; pets registered during it may be there
    // at a moment of their registration (the backup holds one moment of the portal).
    const before = {
      users: (rows: { email: string }[]) => rows.filter((u) => seeded.emails.includes(u.email)),
      pets: (rows: { id: number }[]) => rows.filter((p) => seeded.petIds.includes(p.id)),
      chips: (rows: { petId: number | null }[]) => rows.filter((c) => c.petId !== null && seeded.petIds.includes(c.petId)),
      alerts: (rows: { id: number }[]) => rows.filter((a) => a.id === seeded.alertId),
    };
    expect(before.users(restored.users)).toHaveLength(seeded.emails.length);
    expect(before.pets(restored.pets)).toHaveLength(seeded.petIds.length);
    expect(before.chips(restored.chips).length).toBeGreaterThan(0);
    expect(before.alerts(restored.alerts)).toHaveLength(1);
    for (const table of Object.keys(before) as (keyof typeof before)[]) {
      const pick = before[table] as (rows: unknown[]) => unknown[];
      expect(pick(restored[table]), table).toEqual(pick(live[table]));
    }
    const photos = restored.pets.map((p) => p.image).filter((image): image is string => image !== null);
    expect(photos).toContain(seeded.image);
    for (const photo of photos) {
      const restoredBytes = readFileSync(join(restoredDir, 'uploads', 'pet-images', photo));
      expect(restoredBytes.equals(readFileSync(join(liveDir, 'uploads', 'pet-images', photo))), photo).toBe(true);
    }
    expect(readFileSync(join(restoredDir, 'jwt-secret'))).toEqual(readFileSync(join(liveDir, 'jwt-secret')));
  });

  it('backs up a stopped portal’s folder by opening it itself', async () => {
    const file = join(folder, 'stopped.tar.gz');
    const answer = await command('db:backup', liveDir, [file]);
    expect(answer.code).toBe(0);
    const manifest = await readBackup(file);
    expect(manifest.uploads).toBe(listing(join(liveDir, 'uploads')).filter((line) => line.includes('.jpg')).length);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    // A standard tar: the operator's own tools read it.
    const { stdout } = await execute('tar', ['-tzf', file]);
    expect(stdout.split('\n').slice(0, 3)).toEqual(['manifest.json', 'database.tar', 'jwt-secret']);
    expect(stdout).toMatch(/^uploads\/pet-images\/[0-9a-f]{32}\.jpg$/m);
  });
});
