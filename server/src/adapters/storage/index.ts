import { createReadStream } from 'node:fs';
import { mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { Readable } from 'node:stream';

/**
 * How a client is given a stored file: its bytes through the portal (a stream of known length
 * when the store gives one), or a short-lived address where the bucket serves it.
 */
export type ServedFile = { body: Buffer | Readable; length?: number } | { location: string; maxAgeSeconds: number };

/** Where uploaded files live: a folder by default, an S3-compatible bucket (see s3.ts) when one is set. */
export interface FileStorage {
  put(folder: string, name: string, content: Buffer): Promise<void>;
  /** The file's content, or null when there is no such file. */
  get(folder: string, name: string): Promise<Buffer | null>;
  /** How a client gets the file, or null when there is no such file. */
  open(folder: string, name: string): Promise<ServedFile | null>;
  /** Whether the file is stored. */
  has(folder: string, name: string): Promise<boolean>;
  /** Removes the file; a file that is already gone is no error. */
  delete(folder: string, name: string): Promise<void>;
}

/** The store of files did not answer, or refused: the request may succeed a moment later. */
export class StorageUnavailableError extends Error {
  constructor(cause: unknown) {
    super('the storage of uploaded files is out of reach', { cause });
  }
}

const isMissing = (error: unknown) => (error as NodeJS.ErrnoException).code === 'ENOENT';

/** Files under `root/<folder>/<name>`, written to a temporary name first so a reader never sees half a file. */
export function createDiskStorage(root: string): FileStorage {
  return {
    async put(folder, name, content) {
      const dir = join(root, folder);
      await mkdir(dir, { recursive: true });
      const partial = join(dir, `.${name}.partial`);
      await writeFile(partial, content);
      await rename(partial, join(dir, name));
    },
    async get(folder, name) {
      try {
        return await readFile(join(root, folder, name));
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async open(folder, name) {
      const path = join(root, folder, name);
      try {
        const { size } = await stat(path);
        return { body: createReadStream(path), length: size };
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
    },
    async has(folder, name) {
      return stat(join(root, folder, name)).then(
        () => true,
        (error: unknown) => {
          if (isMissing(error)) return false;
          throw error;
        },
      );
    },
    async delete(folder, name) {
      await rm(join(root, folder, name), { force: true });
    },
  };
}
