import { randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { copyFile, link, mkdir, mkdtemp, readdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, relative } from 'node:path';
import { createGunzip } from 'node:zlib';
import { sql } from 'drizzle-orm';
import { openDatabase, queryRows, type DatabaseHandle } from '../../db/client.js';
import { migrationsFolder } from '../../paths.js';
import { ArchiveFormatError, readTar, tarBlocks, type ArchiveEntry } from './archive.js';

/** A backup refused or failed, in words for the operator. */
export class BackupError extends Error {}

const FORMAT = 'pet-registry-backup';
const MANIFEST = 'manifest.json';
const DATABASE = 'database.tar';
/** The portal's own secret (unless JWT_SECRET is set): sessions, unsubscribe and preferences links stay valid after a restore. */
const SECRET = 'jwt-secret';
const UPLOADS = 'uploads';
/** Names inside the uploads folder: the image folders and the stored images, never a path that leaves it. */
const UPLOAD_ENTRY = /^uploads(\/[A-Za-z0-9_-][A-Za-z0-9._-]*)+$/;

export interface Manifest {
  format: typeof FORMAT;
  version: 1;
  createdAt: string;
  /** Migrations applied to the database when it was dumped. */
  migrations: number;
  uploads: number;
}

const LINKS_AT_ONCE = 64;

/** Folders of unfinished backups and restores, under DATA_DIR: a process that died leaves them. */
const LEFTOVER = /^\.(backup|restore)-/;

/** Removes what a backup or restore that died left in DATA_DIR; called only by the data folder's holder. */
export async function removeLeftovers(dataDir: string) {
  const names = await readdir(dataDir).catch(() => []);
  await Promise.all(names.filter((name) => LEFTOVER.test(name)).map((name) => rm(join(dataDir, name), { recursive: true, force: true })));
}

const appliedMigrations = async (database: DatabaseHandle) =>
  Number((await queryRows<{ count: number | string }>(database.db, sql`select count(*) as count from drizzle.__drizzle_migrations`))[0]!.count);

async function knownMigrations(): Promise<number> {
  const journal = JSON.parse(await readFile(join(migrationsFolder, 'meta', '_journal.json'), 'utf8')) as { entries: unknown[] };
  return journal.entries.length;
}

/** Every file under `root` (the uploads' `.partial` files being written are left out), by path relative to it. */
async function filesUnder(root: string): Promise<string[]> {
  const entries = await readdir(root, { recursive: true, withFileTypes: true }).catch((error: NodeJS.ErrnoException) => {
    if (error.code === 'ENOENT') return [];
    throw error;
  });
  return entries
    .filter((entry) => entry.isFile() && !entry.name.startsWith('.'))
    .map((entry) => relative(root, join(entry.parentPath, entry.name)))
    .sort();
}

/**
 * Links (copies where a link cannot be made) every uploaded file into `staging`. Run under the
 * database's lock: an image is stored before the commit that names it and deleted only after the
 * commit that stops naming it, so every image the dump names is there, whatever happens next.
 */
async function linkUploads(uploads: string, staging: string): Promise<string[]> {
  const files = await filesUnder(uploads);
  for (const folder of new Set(files.map((file) => dirname(join(staging, file))))) await mkdir(folder, { recursive: true });
  // Side by side, a batch at a time: the portal's writes wait for the links.
  for (let from = 0; from < files.length; from += LINKS_AT_ONCE) {
    await Promise.all(
      files.slice(from, from + LINKS_AT_ONCE).map((file) => link(join(uploads, file), join(staging, file)).catch(() => copyFile(join(uploads, file), join(staging, file)))),
    );
  }
  return files;
}

/**
 * The backup of the embedded database in `dataDir` and its uploads, as tar blocks: a manifest, the
 * PGlite dump, the portal's secret and every uploaded file. Consistent while the portal writes.
 */
export async function backupBlocks(database: DatabaseHandle, dataDir: string): Promise<AsyncGenerator<Buffer>> {
  if (!database.dump) throw new BackupError('Only the embedded database is backed up this way.');
  const migrations = await appliedMigrations(database);
  const staging = await mkdtemp(join(dataDir, '.backup-'));
  try {
    let uploads: string[] = [];
    const tarball = await database.dump(async () => {
      uploads = await linkUploads(join(dataDir, UPLOADS), staging);
    });
    const manifest: Manifest = { format: FORMAT, version: 1, createdAt: new Date().toISOString(), migrations, uploads: uploads.length };
    const secret = await readFile(join(dataDir, SECRET)).catch(() => null);
    async function* entries(): AsyncGenerator<ArchiveEntry> {
      try {
        yield { name: MANIFEST, data: Buffer.from(JSON.stringify(manifest, null, 2)) };
        yield { name: DATABASE, data: new Uint8Array(await tarball.arrayBuffer()) };
        if (secret) yield { name: SECRET, data: secret };
        for (const file of uploads) yield { name: `${UPLOADS}/${file}`, data: await readFile(join(staging, file)) };
      } finally {
        await rm(staging, { recursive: true, force: true });
      }
    }
    return tarBlocks(entries());
  } catch (error) {
    await rm(staging, { recursive: true, force: true });
    throw error;
  }
}

const notABackup = (file: string, why: string) =>
  new BackupError(`${file} is not a backup made by npm run db:backup (${why}). Nothing was changed.`);

/**
 * Reads a backup file through, checking it is whole and ours, and hands each entry after the
 * manifest to `sink`; answers the manifest. Nothing is handed on before the manifest is checked.
 */
export async function readBackup(file: string, sink: (entry: ArchiveEntry) => Promise<void> = async () => {}): Promise<Manifest> {
  let manifest: Manifest | null = null;
  let uploads = 0;
  let database = false;
  try {
    await readTar(createReadStream(file).pipe(createGunzip()), async (entry) => {
      if (!manifest) {
        if (entry.name !== MANIFEST) throw new ArchiveFormatError('it does not start with its manifest');
        manifest = JSON.parse(Buffer.from(entry.data).toString('utf8')) as Manifest;
        if (manifest.format !== FORMAT || manifest.version !== 1) throw new ArchiveFormatError('its manifest is not ours');
        const known = await knownMigrations();
        if (!(manifest.migrations <= known)) {
          throw new BackupError(`${file} was made by a newer version of the portal (${manifest.migrations} migrations; this one has ${known}). Nothing was changed.`);
        }
        return;
      }
      if (entry.name === DATABASE) database = true;
      else if (UPLOAD_ENTRY.test(entry.name)) uploads++;
      else if (entry.name !== SECRET) throw new ArchiveFormatError(`it holds ${entry.name}`);
      await sink(entry);
    });
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (error instanceof ArchiveFormatError || error instanceof SyntaxError) throw notABackup(file, error.message);
    // zlib's: not gzip at all, or cut short.
    if (code?.startsWith('Z_')) throw notABackup(file, `unreadable: ${(error as Error).message}`);
    if (code === 'ENOENT' && (error as NodeJS.ErrnoException).path === file) throw new BackupError(`${file} does not exist.`);
    throw error;
  }
  const read = manifest as Manifest | null;
  if (!read || !database || uploads !== read.uploads) throw notABackup(file, 'parts of it are missing');
  return read;
}

/** Whether DATA_DIR holds anything a restore would replace. */
async function holdsData(dataDir: string): Promise<boolean> {
  const has = (path: string) => stat(path).then(() => true, () => false);
  return (await has(join(dataDir, 'db', 'PG_VERSION'))) || (await has(join(dataDir, SECRET))) || (await filesUnder(join(dataDir, UPLOADS))).length > 0;
}

/**
 * Restores a backup into `dataDir`, whose database folder the caller holds (lockDataDir). A folder
 * that holds data is replaced only with `force`. The backup is read through and its database
 * opened aside before anything in `dataDir` changes: a file that is not whole changes nothing.
 */
export async function restoreBackup(file: string, dataDir: string, force: boolean): Promise<Manifest> {
  if (!force && (await holdsData(dataDir))) {
    throw new BackupError(`${dataDir} already holds a database. Restore into a new DATA_DIR, or add --force to replace what it holds.`);
  }
  await removeLeftovers(dataDir);
  const staging = join(dataDir, `.restore-${randomUUID()}`);
  try {
    await mkdir(staging);
    const manifest = await readBackup(file, async (entry) => {
      const target = join(staging, entry.name);
      await mkdir(dirname(target), { recursive: true });
      await writeFile(target, entry.data, { mode: 0o600 });
    });
    const snapshot = new Blob([await readFile(join(staging, DATABASE))]);
    const database = await openDatabase({ dataDir: join(staging, 'db'), snapshot }).catch((error: unknown) => {
      throw notABackup(file, `its database does not open: ${(error as Error).message}`);
    });
    try {
      if ((await appliedMigrations(database)) !== manifest.migrations) throw notABackup(file, 'its database does not match its manifest');
    } finally {
      await database.close();
    }
    // Everything is read and opened: only now is DATA_DIR changed.
    for (const part of ['db', UPLOADS, SECRET]) {
      await rm(join(dataDir, part), { recursive: true, force: true });
      await rename(join(staging, part), join(dataDir, part)).catch((error: NodeJS.ErrnoException) => {
        if (error.code !== 'ENOENT') throw error;
      });
    }
    return manifest;
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}
