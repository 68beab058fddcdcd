import type { Readable } from 'node:stream';
import { DeleteObjectCommand, GetObjectCommand, HeadObjectCommand, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { StorageUnavailableError, type FileStorage } from './index.js';
import type { S3Settings } from './settings.js';

/** What the bucket tells a browser that fetches an image from it: the same as the portal says of its images. */
const IMAGE_HEADERS = { ContentType: 'image/jpeg', CacheControl: 'public, max-age=31536000, immutable' };

/** The bucket answered that there is no such object (GetObject's NoSuchKey, HeadObject's bodiless 404). */
const isMissing = (error: unknown) => ['NoSuchKey', 'NotFound'].includes((error as Error).name);

/**
 * Files as objects `<folder>/<name>` of one bucket: the same layout as DATA_DIR/uploads, so every
 * instance reads what any of them stored. Every call is bounded by `timeoutMs`; a bucket that does not
 * answer in time, cannot be reached or refuses throws StorageUnavailableError (503), never hangs.
 */
export function createBucketStorage(settings: S3Settings): FileStorage {
  const { bucket, timeoutMs, signedUrlSeconds } = settings;
  const client = new S3Client({
    region: settings.region,
    endpoint: settings.endpoint,
    forcePathStyle: settings.forcePathStyle,
    credentials: settings.credentials,
    requestHandler: { connectionTimeout: timeoutMs, requestTimeout: timeoutMs },
    // Checksums only where S3 requires them: compatible servers reject or mishandle the newer checksum headers.
    requestChecksumCalculation: 'WHEN_REQUIRED',
    responseChecksumValidation: 'WHEN_REQUIRED',
  });
  const key = (folder: string, name: string) => `${folder}/${name}`;

  /** One call, retried by the SDK within the deadline; null when the object is missing. */
  async function send<T>(call: (abortSignal: AbortSignal) => Promise<T>): Promise<T | null> {
    try {
      return await call(AbortSignal.timeout(timeoutMs));
    } catch (error) {
      if (isMissing(error)) return null;
      throw new StorageUnavailableError(error);
    }
  }

  const storage: FileStorage = {
    async put(folder, name, content) {
      await send((abortSignal) => client.send(new PutObjectCommand({ Bucket: bucket, Key: key(folder, name), Body: content, ...IMAGE_HEADERS }), { abortSignal }));
    },
    async get(folder, name) {
      return send(async (abortSignal) => {
        const object = await client.send(new GetObjectCommand({ Bucket: bucket, Key: key(folder, name) }), { abortSignal });
        return Buffer.from(await object.Body!.transformToByteArray());
      });
    },
    async open(folder, name) {
      if (signedUrlSeconds !== null) {
        // Signing needs no call to the bucket; asking first keeps a missing image a 404 of the portal's.
        if (!(await storage.has(folder, name))) return null;
        const command = new GetObjectCommand({ Bucket: bucket, Key: key(folder, name), ResponseCacheControl: IMAGE_HEADERS.CacheControl, ResponseContentType: IMAGE_HEADERS.ContentType });
        const location = await send(() => getSignedUrl(client, command, { expiresIn: signedUrlSeconds }));
        // A browser keeps the redirect for half the signature's life, so the address it follows has not expired.
        return location === null ? null : { location, maxAgeSeconds: Math.floor(signedUrlSeconds / 2) };
      }
      const object = await send((abortSignal) => client.send(new GetObjectCommand({ Bucket: bucket, Key: key(folder, name) }), { abortSignal }));
      return object && { body: object.Body as Readable, length: object.ContentLength };
    },
    async has(folder, name) {
      return (await send((abortSignal) => client.send(new HeadObjectCommand({ Bucket: bucket, Key: key(folder, name) }), { abortSignal }))) !== null;
    },
    async delete(folder, name) {
      // S3 answers a delete of a missing object with success.
      await send((abortSignal) => client.send(new DeleteObjectCommand({ Bucket: bucket, Key: key(folder, name) }), { abortSignal }));
    },
  };
  return storage;
}
