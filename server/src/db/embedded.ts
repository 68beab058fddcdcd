import { PGlite } from '@electric-sql/pglite';
import { cube } from '@electric-sql/pglite/contrib/cube';
import { earthdistance } from '@electric-sql/pglite/contrib/earthdistance';
import { pg_trgm } from '@electric-sql/pglite/contrib/pg_trgm';
import { drizzle as drizzlePglite } from 'drizzle-orm/pglite';
import { migrate as migratePglite } from 'drizzle-orm/pglite/migrator';
import { migrationsFolder } from '../paths.js';
import { handle, type Database, type DatabaseHandle, type DatabaseOptions } from './client.js';
import { lockDataDir } from './dataDirLock.js';
import * as schema from './schema.js';

/**
 * The embedded database's page cache. PostgreSQL's default (128MB) is zeroed at every start in the
 * WebAssembly build, about a third of a second of a 4 s restart on a slow machine; a page not in it is
 * read from the data folder, through the operating system's own cache.
 */
const EMBEDDED_SHARED_BUFFERS = '32MB';

/** PGlite, in this process, stored in `dataDir` or in memory (see `openDatabase`). */
export async function openEmbeddedDatabase(options: DatabaseOptions): Promise<DatabaseHandle> {
  const releaseDataDir = options.dataDir ? await lockDataDir(options.dataDir) : async () => {};
  try {
    // Distances (cube, earthdistance) and name similarity (pg_trgm) are contrib extensions; the migrations create them.
    const client = await PGlite.create(options.dataDir ?? undefined, {
      extensions: { cube, earthdistance, pg_trgm },
      loadDataDir: options.snapshot,
      startParams: [...PGlite.defaultStartParams, '-c', `shared_buffers=${EMBEDDED_SHARED_BUFFERS}`],
    });
    takeTurnsWithRequests(client);
    const db = drizzlePglite({ client, schema });
    const close = async () => {
      await client.close();
      await releaseDataDir();
    };
    return {
      ...handle(db as unknown as Database, 'pglite', () => migratePglite(db, { migrationsFolder }), close),
      counters: db as unknown as Database,
      // One connection inside the process: nothing to lose.
      onConnectionError: () => {},
      // One process owns the database, so a notification is delivered with the result of the commit that sent it.
      async listen(channel, onNotify) {
        const unlisten = await client.listen(channel, onNotify);
        return {
          live: () => !client.closed,
          unanswered: () => false,
          caughtUp: () => undefined,
          close: () => (client.closed ? Promise.resolve() : unlisten()),
        };
      },
      // dumpDataDir's own steps (the data folder is read with no statement running), with room for `alongside`.
      dump: (alongside) =>
        client.runExclusive(async () => {
          const tarball = await client.fs!.dumpTar('pgdata', 'none');
          await alongside?.();
          return tarball;
        }),
    };
  } catch (error) {
    await releaseDataDir();
    throw error;
  }
}

/** How long the embedded database may run statements one after another before the process reads the requests that came in. */
const REQUESTS_READ_EVERY_MS = 4;

/**
 * PGlite runs each statement on the portal's own thread, and hands its lock from one waiting statement
 * to the next without a pause: while writes queue, the requests already in (a kept public answer, the
 * health check) waited for the whole queue to drain, seconds under load. Statements and transactions
 * now take turns, one after the other, and every few milliseconds the process reads the requests that
 * came in before the next one runs.
 */
function takeTurnsWithRequests(client: PGlite): void {
  let previous: Promise<unknown> = Promise.resolve();
  let readAt = performance.now();
  const readRequests = async () => {
    if (performance.now() - readAt < REQUESTS_READ_EVERY_MS) return;
    await new Promise<void>((resolve) => setImmediate(resolve));
    readAt = performance.now();
  };
  const inTurn = <T>(run: () => Promise<T>): Promise<T> => {
    const turn = previous.then(readRequests).then(run);
    previous = turn.catch(() => {});
    return turn;
  };
  const query = client.query.bind(client);
  const transaction = client.transaction.bind(client);
  client.query = ((...args: Parameters<typeof query>) => inTurn(() => query(...args))) as typeof client.query;
  client.transaction = ((callback: Parameters<typeof transaction>[0]) => inTurn(() => transaction(callback))) as typeof client.transaction;
}
