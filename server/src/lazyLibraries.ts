import type { FastifyBaseLogger } from 'fastify';
import { loadSharp } from './adapters/storage/images.js';
import { loadCardLibraries } from './modules/pets/card.js';

/**
 * How long after the portal first answers it loads the libraries a start leaves out: a restart's first
 * answers do not wait behind them (loading them takes about half a second of CPU, once, and holds the
 * event loop up to an eighth of a second at a time).
 */
export const PRELOAD_AFTER_MS = 2000;

/** The libraries loaded at first use rather than at start, by what needs them. */
export const lazyLibraries: Record<string, () => Promise<unknown>> = {
  'image library (sharp), for pet and owner photos': loadSharp,
  'PDF and QR code libraries (pdfkit, qrcode), for pet cards': loadCardLibraries,
};

/**
 * Loads them once the portal answers, so that one broken on this machine (a native binary missing)
 * is told in the log at start rather than found by the first upload or card; each later use takes
 * the loaded module.
 */
export async function preloadLibraries(log: FastifyBaseLogger, libraries = lazyLibraries): Promise<void> {
  await Promise.all(
    Object.entries(libraries).map(([name, load]) =>
      load().catch((error: unknown) => log.error({ err: error }, `Could not load the ${name}: they will fail until it is reinstalled (npm ci)`)),
    ),
  );
}
