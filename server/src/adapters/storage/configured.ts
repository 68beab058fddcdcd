import { join } from 'node:path';
import type { Config } from '../../config.js';
import { createDiskStorage, type FileStorage } from './index.js';

/** The folder of uploaded files on disk: the store without a bucket, and what storage:copy-to-s3 copies from. */
export const uploadsDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'uploads');

/** The bucket when S3_BUCKET is set; otherwise DATA_DIR/uploads. */
export async function createStorage(config: Pick<Config, 'dataDir' | 's3'>): Promise<FileStorage> {
  if (!config.s3) return createDiskStorage(uploadsDir(config));
  // The AWS SDK is loaded only for a bucket: a portal on its disk starts without it.
  const { createBucketStorage } = await import('./s3.js');
  return createBucketStorage(config.s3);
}
