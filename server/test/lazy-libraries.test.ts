import { createRequire } from 'node:module';
import { messages } from '@petreg/contract';
import pino from 'pino';
import { describe, expect, it } from 'vitest';
import { lazyLibraries, preloadLibraries } from '../src/lazyLibraries.js';
import { call, createTestApp } from './helpers.js';

/** What a logger was told, line by line. */
function recordingLog() {
  const lines: { level: number; msg: string; err?: { message: string } }[] = [];
  const log = pino({ level: 'info' }, { write: (line: string) => void lines.push(JSON.parse(line)) });
  return { log, lines };
}

describe.runIf(process.env.TEST_DB === 'pglite')('the libraries a start leaves out', () => {
  it('loads every one of them on this machine, and tells nothing', async () => {
    const { log, lines } = recordingLog();
    await preloadLibraries(log);
    expect(lines).toEqual([]);
    expect(Object.keys(lazyLibraries)).toHaveLength(2);
  });

  it('tells of one that cannot be loaded, by what needs it, and loads the others', async () => {
    const { log, lines } = recordingLog();
    let loaded = false;
    await preloadLibraries(log, {
      'image library (sharp), for pet and owner photos': () => Promise.reject(new Error('Could not load the "sharp" module using the linux-x64 runtime')),
      'PDF and QR code libraries (pdfkit, qrcode), for pet cards': async () => {
        loaded = true;
      },
    });
    expect(loaded).toBe(true);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: 50,
      msg: 'Could not load the image library (sharp), for pet and owner photos: they will fail until it is reinstalled (npm ci)',
      err: { message: 'Could not load the "sharp" module using the linux-x64 runtime' },
    });
  });

  it("never loads Fastify's own JSON Schema compilers (ajv, fast-json-stringify's): no route's schema needs them", async () => {
    const ctx = await createTestApp();
    try {
      const refused = await call(ctx.app, 'GET', 'utilities/microchip-lookup?id=12ab');
      expect(refused).toMatchObject({ status: 400, body: { errors: [messages.lookupLength] } });
      const loaded = Object.keys(createRequire(import.meta.url).cache);
      // (Fastify's own error serialiser, built ahead of time, needs fast-json-stringify's small runtime only.)
      const compilers = /[/\\]node_modules[/\\](ajv[/\\]|@fastify[/\\](ajv-compiler|fast-json-stringify-compiler)[/\\]|fast-json-stringify[/\\]index\.js)/;
      expect(loaded.filter((file) => compilers.test(file))).toEqual([]);
    } finally {
      await ctx.close();
    }
  });
});
