// PGlite serves one process, and the running portal holds its data folder: `npm run db:backup` asks
// the portal for the backup through a Unix socket in DATA_DIR, which only the portal's user may open
// (no HTTP route, nothing reachable from the network).
import { chmod, rm } from 'node:fs/promises';
import { createConnection, createServer, type Socket } from 'node:net';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { DatabaseHandle } from '../../db/client.js';
import { backupBlocks, removeLeftovers } from './service.js';

const REQUEST = 'backup\n';

export const backupSocketPath = (dataDir: string) => join(dataDir, 'backup.sock');

/** A longer path does not fit a Unix socket's address (108 bytes on Linux): it would be cut, naming another file. */
const fitsSocketAddress = (path: string) => Buffer.byteLength(path) < 108;

/**
 * Answers each connection that asks for a backup with its tar blocks. A backup that fails is
 * logged and its connection reset, so the command sees it was cut off rather than a short file.
 */
export async function serveBackups(database: DatabaseHandle, dataDir: string, log: FastifyBaseLogger): Promise<() => Promise<void>> {
  const path = backupSocketPath(dataDir);
  // This process holds the data folder: what is there was left by one that died.
  await removeLeftovers(dataDir);
  if (!fitsSocketAddress(path)) {
    log.warn(`npm run db:backup cannot reach this portal: ${path} is too long for a Unix socket. Stop the portal to back up, or use a shorter DATA_DIR.`);
    return async () => {};
  }
  await rm(path, { force: true });
  const connections = new Set<Socket>();
  const server = createServer((socket) => {
    connections.add(socket);
    socket.once('close', () => connections.delete(socket));
    socket.setEncoding('latin1');
    let request = '';
    socket.on('data', (chunk: string) => {
      request += chunk;
      if (request.length < REQUEST.length) return;
      socket.removeAllListeners('data');
      if (request !== REQUEST) return void socket.destroy();
      backupBlocks(database, dataDir)
        .then((blocks) => pipeline(Readable.from(blocks), socket))
        .catch((error: unknown) => {
          log.error({ err: error }, 'a backup asked for by npm run db:backup failed');
          socket.resetAndDestroy();
        });
    });
  });
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(path, () => resolve());
    });
    await chmod(path, 0o600);
  } catch (error) {
    server.close();
    log.warn({ err: error }, `npm run db:backup cannot reach this portal (no socket at ${path}): stop the portal to back up`);
    return async () => {};
  }
  return () =>
    new Promise<void>((resolve) => {
      connections.forEach((socket) => socket.destroy());
      server.close(() => resolve());
    });
}

/** The running portal's backup as a stream, or null when no portal answers on the data folder's socket. */
export function backupFromRunningPortal(dataDir: string): Promise<Readable | null> {
  const path = backupSocketPath(dataDir);
  if (!fitsSocketAddress(path)) return Promise.resolve(null);
  return new Promise((resolve, reject) => {
    const socket = createConnection(path);
    socket.once('connect', () => {
      socket.removeAllListeners('error');
      socket.write(REQUEST);
      resolve(socket);
    });
    socket.once('error', (error: NodeJS.ErrnoException) => {
      // No socket, or one a stopped portal left behind.
      if (error.code === 'ENOENT' || error.code === 'ECONNREFUSED') resolve(null);
      else reject(error);
    });
  });
}
