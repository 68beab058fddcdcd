import { z } from 'zod';
import { ConfigError } from '../../configError.js';

/** Uploaded images on an S3-compatible bucket when S3_BUCKET is set; otherwise files under DATA_DIR/uploads. */
export interface S3Settings {
  bucket: string;
  /** An S3-compatible service's address; undefined: AWS's own for the region. */
  endpoint: string | undefined;
  region: string;
  /** Undefined: the SDK's own chain (AWS_* variables, the instance's role). */
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  /** Bucket in the path (endpoint/bucket/key) rather than in the host name, as most compatible servers need. */
  forcePathStyle: boolean;
  /** Images served as a redirect to an address signed for this many seconds; null: streamed through the portal. */
  signedUrlSeconds: number | null;
  /** How long one call to the bucket may take before the portal answers 503. */
  timeoutMs: number;
}

const optional = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

const flag = z.enum(['true', 'false']).optional();

/** The variables, parsed with the rest of the environment in config.ts. */
export const s3Env = {
  S3_BUCKET: optional.refine((v) => !v || /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/.test(v), 'must be a bucket name (3 to 63 lower-case letters, digits, dots and hyphens)'),
  S3_ENDPOINT: optional.pipe(z.url().optional()),
  S3_REGION: optional,
  S3_ACCESS_KEY_ID: optional,
  S3_SECRET_ACCESS_KEY: optional,
  S3_FORCE_PATH_STYLE: flag,
  S3_SIGNED_URLS: flag,
  // SigV4 signatures last at most a week.
  S3_SIGNED_URL_SECONDS: z.coerce.number().int('must be a whole number of seconds').min(10, 'must be from 10 to 604800 seconds').max(604_800, 'must be from 10 to 604800 seconds').optional(),
  S3_TIMEOUT_MS: z.coerce.number().int('must be a whole number of milliseconds').min(100, 'must be from 100 to 60000 milliseconds').max(60_000, 'must be from 100 to 60000 milliseconds').optional(),
};

type S3Env = { [K in keyof typeof s3Env]?: z.output<(typeof s3Env)[K]> };

/** A bucket answers in tens of milliseconds; five seconds is a bucket in trouble, not a slow one. */
const DEFAULT_TIMEOUT_MS = 5000;

/** Short enough that a leaked address soon stops working, long enough for a slow page to load its images. */
const DEFAULT_SIGNED_URL_SECONDS = 300;

/** The bucket's settings, or null without S3_BUCKET; a setting that has no effect alone is refused. */
export function s3Of(e: S3Env): S3Settings | null {
  const others = (['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_SIGNED_URLS', 'S3_SIGNED_URL_SECONDS', 'S3_TIMEOUT_MS'] as const).filter(
    (name) => e[name] !== undefined,
  );
  if (!e.S3_BUCKET) {
    if (others.length) throw new ConfigError(`Invalid configuration: S3_BUCKET is required when ${others.join(', ')} ${others.length === 1 ? 'is' : 'are'} set`);
    return null;
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError('Invalid configuration: S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together, or neither (the SDK then finds the credentials itself)');
  }
  if (!e.S3_REGION && !e.S3_ENDPOINT) {
    throw new ConfigError('Invalid configuration: S3_REGION is required with S3_BUCKET unless S3_ENDPOINT names an S3-compatible service');
  }
  if (e.S3_SIGNED_URL_SECONDS !== undefined && e.S3_SIGNED_URLS !== 'true') {
    throw new ConfigError('Invalid configuration: S3_SIGNED_URL_SECONDS is only read with S3_SIGNED_URLS=true');
  }
  return {
    bucket: e.S3_BUCKET,
    endpoint: e.S3_ENDPOINT,
    // Compatible services take any region in the signature; us-east-1 is the one they expect by default.
    region: e.S3_REGION ?? 'us-east-1',
    credentials: e.S3_ACCESS_KEY_ID ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY! } : undefined,
    forcePathStyle: e.S3_FORCE_PATH_STYLE === 'true',
    signedUrlSeconds: e.S3_SIGNED_URLS === 'true' ? (e.S3_SIGNED_URL_SECONDS ?? DEFAULT_SIGNED_URL_SECONDS) : null,
    timeoutMs: e.S3_TIMEOUT_MS ?? DEFAULT_TIMEOUT_MS,
  };
}
