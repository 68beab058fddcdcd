import { join } from 'node:path';
import type { Config } from '../../config.js';
import { createDiskStorage, type FileStorage } from './index.js';
import { createBucketStorage } from './s3.js';

/** The folder of uploaded files on disk: the store without a bucket, and what storage:copy-to-s3 copies from. */
export const uploadsDir = (config: Pick<Config, 'dataDir'>) => join(config.dataDir, 'uploads');

/** The bucket when S3_BUCKET is set; otherwise DATA_DIR/uploads. */
export const createStorage = (config: Pick<Config, 'dataDir' | 's3'>): FileStorage =>
  config.s3 ? createBucketStorage(config.s3) : createDiskStorage(uploadsDir(config));
