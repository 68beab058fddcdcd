import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import { hostname } from 'node:os';
import { join } from 'node:path';
import lockfile from 'proper-lockfile';

export class DatabaseInUseError extends Error {}

/** Who holds a lock: written inside the lock's folder as it is made, so it always names that lock's holder. */
const OWNER_FILE = 'owner.json';

/**
 * The file system proper-lockfile works through, which writes the holder's process and host into
 * each lock it makes, and removes that note with the lock.
 */
const ownedLocks = {
  ...fs,
  mkdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void) {
    fs.mkdir(path, (error) => {
      if (error) return callback(error);
      const owner = JSON.stringify({ pid: process.pid, host: hostname() });
      // Without the note the lock only runs out with time, as it did before: still held.
      fs.writeFile(join(path, OWNER_FILE), owner, () => callback(null));
    });
  },
  rmdir(path: string, callback: (error: NodeJS.ErrnoException | null) => void) {
    fs.rm(join(path, OWNER_FILE), { force: true }, () => fs.rmdir(path, callback));
  },
  rmdirSync(path: string) {
    fs.rmSync(join(path, OWNER_FILE), { force: true });
    fs.rmdirSync(path);
  },
};

/** True when the lock was made by a process of this host that no longer runs (it crashed). */
function heldByTheDead(lockPath: string): boolean {
  let owner: { pid?: unknown; host?: unknown };
  try {
    owner = JSON.parse(fs.readFileSync(join(lockPath, OWNER_FILE), 'utf8')) as typeof owner;
  } catch {
    return false;
  }
  if (owner.host !== hostname() || typeof owner.pid !== 'number') return false;
  try {
    process.kill(owner.pid, 0);
    return false;
  } catch (error) {
    // EPERM: the process runs, as another user.
    return (error as NodeJS.ErrnoException).code === 'ESRCH';
  }
}

/**
 * PGlite is one process's database: a second process on the same folder (a second `npm start`, or
 * an operator's command beside the running portal) would corrupt it. A lock next to the folder,
 * refreshed while the process lives, keeps it to one. After a crash it is taken over at once when
 * its holder ran on this host and is gone, otherwise once it is stale.
 */
export async function lockDataDir(dataDir: string): Promise<() => Promise<void>> {
  fs.mkdirSync(dataDir, { recursive: true });
  const lockfilePath = `${dataDir}.lock`;
  const lock = () =>
    lockfile.lock(dataDir, {
      lockfilePath,
      fs: ownedLocks,
      // A holder on another host (a shared folder) frees the folder ten seconds after it stops.
      stale: 10_000,
      update: 3_000,
      realpath: false,
      // A lock that could not be refreshed in time (a stalled event loop) is reported, not fatal:
      // stopping the portal mid-request would do more harm.
      onCompromised: (error) => console.error(`The lock on the embedded database in ${dataDir} was lost: ${error.message}`),
    });
  try {
    return await lock().catch((error: unknown) => {
      if ((error as { code?: string }).code !== 'ELOCKED' || !heldByTheDead(lockfilePath)) throw error;
      // Two processes starting after the same crash both find the holder dead: the lock is first moved
      // aside (one rename wins), and only the dead holder's lock is removed, never the winner's new one.
      const aside = `${lockfilePath}.dead-${randomUUID()}`;
      try {
        fs.renameSync(lockfilePath, aside);
      } catch {
        return lock();
      }
      if (!heldByTheDead(aside)) {
        fs.renameSync(aside, lockfilePath);
        throw error;
      }
      fs.rmSync(aside, { recursive: true, force: true });
      return lock();
    });
  } catch (error) {
    if ((error as { code?: string }).code !== 'ELOCKED') throw error;
    throw new DatabaseInUseError(
      `The embedded database in ${dataDir} is in use by another process (is the portal running?). Stop it first, or use DATABASE_URL.`,
    );
  }
}
