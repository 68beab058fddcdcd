import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { createTaskQueue } from '../../taskQueue.js';
import { imageFolders, isStoredImageName } from './images.js';
import { createDiskStorage, type FileStorage } from './index.js';

export interface CopyCounts {
  copied: number;
  /** Already in the bucket (an earlier run's, or stored there since): left as they are. */
  present: number;
  failed: number;
  /** Why the first failed copy failed, when one did. */
  firstError?: unknown;
}

/** A few calls at once: a bucket answers each in tens of milliseconds, and the portal may be serving meanwhile. */
const CALLS_AT_ONCE = 8;

/** The stored images in one folder of the disk; none when the folder was never made. */
async function storedNames(root: string, folder: string): Promise<string[]> {
  try {
    return (await readdir(join(root, folder))).filter(isStoredImageName);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
}

/**
 * Copies every image under `root` (DATA_DIR/uploads) to the same folder and name in the bucket,
 * skipping those already there, so a second run copies nothing and an interrupted one resumes.
 * A failed copy is counted and the others go on.
 */
export async function copyToBucket(root: string, bucket: FileStorage): Promise<CopyCounts> {
  const disk = createDiskStorage(root);
  const counts: CopyCounts = { copied: 0, present: 0, failed: 0 };
  const queue = createTaskQueue(CALLS_AT_ONCE);
  const copy = async (folder: string, name: string) => {
    try {
      if (await bucket.has(folder, name)) {
        counts.present++;
        return;
      }
      const content = await disk.get(folder, name);
      // Deleted from the disk since the folder was read (the portal runs meanwhile): nothing to copy.
      if (!content) return;
      await bucket.put(folder, name, content);
      counts.copied++;
    } catch (error) {
      counts.failed++;
      counts.firstError ??= error;
    }
  };
  for (const folder of Object.values(imageFolders)) {
    const names = await storedNames(root, folder);
    await Promise.all(names.map((name) => queue(() => copy(folder, name))));
  }
  return counts;
}
