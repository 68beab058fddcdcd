import { mkdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

/** Where uploaded files live: a folder by default, an S3-compatible bucket in production. */
export interface FileStorage {
  put(folder: string, name: string, content: Buffer): Promise<void>;
  /** The file's content, or null when there is no such file. */
  get(folder: string, name: string): Promise<Buffer | null>;
  /** Removes the file; a file that is already gone is no error. */
  delete(folder: string, name: string): Promise<void>;
}

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
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async delete(folder, name) {
      await rm(join(root, folder, name), { force: true });
    },
  };
}
