import { execFile, spawn } from 'node:child_process';
import { once } from 'node:events';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { sql } from 'drizzle-orm';
import { afterAll, describe, expect, it } from 'vitest';
import { DatabaseInUseError, openDatabase } from '../src/db/client.js';
import { lockDataDir } from '../src/db/dataDirLock.js';

const dataDir = mkdtempSync(join(tmpdir(), 'petreg-lock-'));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

// The embedded database on disk: a PostgreSQL server serves many processes and needs no lock.
// Each test starts the command in a process of its own (tsx, PGlite); a busy CI machine needs minutes, not seconds.
describe.skipIf(process.env.TEST_DB === 'postgres')('the embedded database folder', { timeout: 180_000 }, () => {
  it('serves one process at a time, and is free again once closed', async () => {
    const first = await openDatabase({ dataDir: join(dataDir, 'db') });
    await expect(openDatabase({ dataDir: join(dataDir, 'db') })).rejects.toThrow(DatabaseInUseError);
    await expect(openDatabase({ dataDir: join(dataDir, 'db') })).rejects.toThrow(
      `The embedded database in ${join(dataDir, 'db')} is in use by another process (is the portal running?). Stop it first, or use DATABASE_URL.`,
    );
    expect(await first.ping()).toBe(true);
    // Its page cache is zeroed at every start: PostgreSQL's default (128MB) was a third of a second of a restart.
    expect(await first.db.execute(sql`show shared_buffers`)).toMatchObject({ rows: [{ shared_buffers: '32MB' }] });
    await first.close();
    const second = await openDatabase({ dataDir: join(dataDir, 'db') });
    expect(await second.ping()).toBe(true);
    await second.close();
  });

  it("keeps an operator's command off the folder of a running portal, changing nothing", async () => {
    const running = await openDatabase({ dataDir: join(dataDir, 'db') });
    try {
      const command = await promisify(execFile)('node', ['--import', 'tsx', 'server/src/cli.ts', 'sweep'], {
        cwd: resolve(import.meta.dirname, '../..'),
        env: { ...process.env, DATA_DIR: dataDir, DATABASE_URL: '' },
      }).catch((error: { code: number; stderr: string }) => error);
      expect(command).toMatchObject({ code: 1 });
      expect((command as { stderr: string }).stderr).toContain('is in use by another process (is the portal running?)');
    } finally {
      await running.close();
    }
  });

  it('is taken at once after a crash of the process that held it', async () => {
    const folder = join(dataDir, 'crashed');
    // A process opens the database, says so, and is killed outright: no chance to let go of the lock.
    const holder = spawn('node', ['--import', 'tsx', '-e', `
      import { openDatabase } from './server/src/db/client.ts';
      await openDatabase({ dataDir: ${JSON.stringify(folder)} });
      console.log('open');
      setInterval(() => {}, 1000);
    `], { cwd: resolve(import.meta.dirname, '../..'), stdio: ['ignore', 'pipe', 'inherit'] });
    const [line] = (await once(holder.stdout, 'data')) as [Buffer];
    expect(line.toString()).toContain('open');
    holder.kill('SIGKILL');
    await once(holder, 'exit');
    const started = performance.now();
    const reopened = await openDatabase({ dataDir: folder });
    try {
      // Well before the ten seconds after which a lock of another host's process runs out.
      expect(performance.now() - started).toBeLessThan(5000);
      expect(await reopened.ping()).toBe(true);
    } finally {
      await reopened.close();
    }
  });

  it('goes to one of two processes that find the same crashed holder at once', async () => {
    const folder = join(dataDir, 'crashed-twice');
    const lockPath = `${folder}.lock`;
    const gone = spawn('node', ['-e', '']);
    await once(gone, 'exit');
    // The note a crashed holder leaves: a process of this host that no longer runs.
    mkdirSync(folder, { recursive: true });
    mkdirSync(lockPath);
    writeFileSync(join(lockPath, 'owner.json'), JSON.stringify({ pid: gone.pid, host: hostname() }));
    const taken = await Promise.allSettled([lockDataDir(folder), lockDataDir(folder)]);
    expect(taken.filter((t) => t.status === 'fulfilled')).toHaveLength(1);
    expect(taken.find((t) => t.status === 'rejected')!.reason).toBeInstanceOf(DatabaseInUseError);
    await (taken.find((t) => t.status === 'fulfilled') as PromiseFulfilledResult<() => Promise<void>>).value();
  });
});
