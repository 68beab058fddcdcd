import { randomBytes } from 'node:crypto';
import { API_BASE, limits, messages } from '@petreg/contract';
import type { FileStorage } from './index.js';
import { AppError, badRequest } from '../../errors.js';
import { createTaskQueue } from '../../taskQueue.js';

const MAX_EDGE_PX = 1600;
/** Name of stored images: random, so a pet's photo cannot be found by guessing. */
const STORED_NAME = /^[a-f0-9]{32}\.jpg$/;

/** Finders' photos are the owner's to see only: no public route serves their folder. */
export const imageFolders = { pets: 'pet-images', users: 'user-images', foundReports: 'found-report-images' } as const;

/** Where the API serves each folder's images (GET pet/pet-images/{file}, GET Users/user-images/{file}). */
const imageRoutes = { pets: `${API_BASE}/pet/pet-images`, users: `${API_BASE}/Users/user-images` } as const;

/** The address of a stored image, or null without one. */
export const imageUrl = (folder: keyof typeof imageRoutes, name: string | null): string | null =>
  name ? `${imageRoutes[folder]}/${name}` : null;

/**
 * Decodes at once: one a core. Each holds tens of megabytes and keeps a core busy for up to a second
 * or two; more uploads at the same moment wait their turn rather than pile up memory.
 */
const decodes = createTaskQueue(2);

/** The image library, loaded with the first image handled rather than at every start. */
export const loadSharp = () => import('sharp').then((module) => module.default);

type Sharp = Awaited<ReturnType<typeof loadSharp>>;

/** The pixels an image declares, read from its header without decoding it; null when it is no image. */
async function declaredPixels(sharp: Sharp, upload: Buffer): Promise<number | null> {
  try {
    // No limit on reading the header: the count is weighed here, to be refused in the product's words.
    const { width, height } = await sharp(upload, { limitInputPixels: false }).metadata();
    return width && height ? width * height : null;
  } catch {
    return null;
  }
}

/**
 * Stores an uploaded image (a data URL) after checking by its content that it is an image,
 * re-encoding it as JPEG of bounded size. Re-encoding drops every metadata block, GPS positions included.
 */
export async function storeImage(storage: FileStorage, folder: string, dataUrl: string): Promise<string> {
  const match = /^data:[^;,]*(;base64)?,(.*)$/s.exec(dataUrl);
  if (!match?.[1]) throw badRequest(messages.onlyImages);
  const upload = Buffer.from(match[2]!, 'base64');
  if (upload.length > limits.imageUploadBytesMax) throw new AppError(413, [messages.imageTooLarge]);
  const sharp = await loadSharp();
  const pixels = await declaredPixels(sharp, upload);
  if (pixels === null) throw badRequest(messages.onlyImages);
  if (pixels > limits.imagePixelsMax) throw badRequest(messages.imageTooManyPixels);
  let jpeg: Buffer;
  try {
    jpeg = await decodes(() =>
      // The decoder holds to the limit too, whatever the header said.
      sharp(upload, { limitInputPixels: limits.imagePixelsMax })
        .rotate() // apply the camera's orientation before the EXIF block is dropped
        .resize({ width: MAX_EDGE_PX, height: MAX_EDGE_PX, fit: 'inside', withoutEnlargement: true })
        .flatten({ background: '#ffffff' })
        .jpeg({ quality: 82, mozjpeg: true })
        .toBuffer(),
    );
  } catch {
    throw badRequest(messages.onlyImages);
  }
  const name = `${randomBytes(16).toString('hex')}.jpg`;
  await storage.put(folder, name, jpeg);
  return name;
}

/** A square copy of a stored photo, `size` pixels a side, cropped to its middle: what a card of that size shows. */
export async function squareCopy(jpeg: Buffer, size: number): Promise<Buffer> {
  const sharp = await loadSharp();
  return decodes(() => sharp(jpeg).resize({ width: size, height: size, fit: 'cover' }).jpeg({ quality: 78, mozjpeg: true }).toBuffer());
}

/** True when the name is one this module could have stored; anything else is never read from disk. */
export const isStoredImageName = (name: string) => STORED_NAME.test(name);

/**
 * The new value of an image column from what a form sent: a data URL is stored as a new image,
 * the current name keeps the image, empty removes it, anything else is refused.
 */
export async function resolveImageField(
  storage: FileStorage,
  folder: string,
  sent: string | null,
  current: string | null,
): Promise<string | null> {
  if (sent === null || sent === '') return null;
  if (sent.startsWith('data:')) return storeImage(storage, folder, sent);
  if (sent === current) return current;
  throw badRequest(messages.onlyImages);
}

/**
 * The image a row gets, decided under its lock: what the form sent, except that a form keeping the
 * image it was shown keeps the row's current one, which a concurrent edit may have replaced since.
 */
export const keptImage = (sent: string | null, shown: string | null, current: string | null) => (sent === shown ? current : sent);

/**
 * Deletes the stored image `file` unless it is the one the row now names. Called once a change is
 * decided: after the commit with the replaced image, or after a failure with the newly stored one.
 * Never before the commit, so a failed change keeps the image its row still names. A file that
 * cannot be deleted stays as an unused orphan rather than failing a change that already happened.
 */
export async function discardImage(storage: FileStorage, folder: string, file: string | null, named: string | null) {
  if (file && file !== named) await storage.delete(folder, file).catch(() => undefined);
}
