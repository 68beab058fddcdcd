import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createMailer } from '../src/adapters/mail/index.js';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { createTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
let app: FastifyInstance;
let webRoot: string;
const script = `console.log(${JSON.stringify('a pet registry '.repeat(200))});`;
const styles = 'body { color: #222; }';
const page = `<!doctype html><title>Pet Registry</title>${'<p>lookup</p>'.repeat(200)}`;

/** A built web folder as the Vite build leaves it: each text file with its .br and .gz copies. */
function writeBuilt(path: string, content: string) {
  writeFileSync(path, content);
  writeFileSync(`${path}.br`, brotliCompressSync(content));
  writeFileSync(`${path}.gz`, gzipSync(content));
}

beforeAll(async () => {
  ctx = await createTestApp();
  webRoot = mkdtempSync(join(tmpdir(), 'petreg-web-'));
  mkdirSync(join(webRoot, 'assets'));
  writeBuilt(join(webRoot, 'index.html'), page);
  writeBuilt(join(webRoot, 'assets', 'index-abc123.js'), script);
  // Below 1 KB the build leaves a file without copies.
  writeFileSync(join(webRoot, 'assets', 'index-abc123.css'), styles);
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: ctx.outboxDir });
  app = await buildApp({ config, database: ctx.database, mailer: createMailer({ from: config.mailFrom, outboxDir: ctx.outboxDir }), jwtSecret: 'test-secret-test-secret-test-secret!', webRoot });
});
afterAll(async () => {
  await app.close();
  await ctx.close();
  rmSync(webRoot, { recursive: true, force: true });
});

describe('compression', () => {
  it('sends the precompressed copy of a built asset, immutable, and the plain file to a client that takes none', async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers).toMatchObject({ 'content-encoding': 'br', vary: expect.stringMatching(/accept-encoding/i), 'cache-control': 'public, max-age=31536000, immutable' });
    expect(brotliDecompressSync(br.rawPayload).toString()).toBe(script);
    const gz = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip' } });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const plain = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(script);
  });

  it("answers 304 to a browser holding the asset's copy in its encoding, HEAD with the headers alone, and each type with its charset", async () => {
    const br = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers).toMatchObject({ 'content-type': 'text/javascript; charset=utf-8', etag: expect.stringMatching(/^"[\w-]{32}"$/) });
    const held = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br', 'if-none-match': br.headers.etag as string } });
    expect(held.statusCode).toBe(304);
    expect(held.body).toBe('');
    // The gzip copy is other bytes: a cache holding the brotli copy does not get it as current.
    const gz = await app.inject({ method: 'GET', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'gzip', 'if-none-match': br.headers.etag as string } });
    expect(gz.statusCode).toBe(200);
    expect(gunzipSync(gz.rawPayload).toString()).toBe(script);
    const head = await app.inject({ method: 'HEAD', url: '/assets/index-abc123.js', headers: { 'accept-encoding': 'br' } });
    expect(head.statusCode).toBe(200);
    expect(head.headers).toMatchObject({ 'content-encoding': 'br', etag: br.headers.etag, 'content-length': String(br.rawPayload.length) });
    expect(head.body).toBe('');
    const style = await app.inject({ method: 'GET', url: '/assets/index-abc123.css' });
    expect(style.headers).toMatchObject({ 'content-type': 'text/css; charset=utf-8', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(style.body).toBe(styles);
  });

  it('sends nothing but the built files themselves: no copy alone, no other folder, no hidden file', async () => {
    writeFileSync(join(webRoot, 'assets', '.env'), 'SECRET=1');
    for (const url of ['/assets/index-abc123.js.br', '/assets/index-abc123.js.gz', '/assets/..%2Findex.html', '/assets/%2E%2E%2Findex.html', '/assets/.env', '/assets/', '/assets/a/index-abc123.js']) {
      const refused = await app.inject({ method: 'GET', url });
      expect(refused.statusCode, url).toBe(404);
      expect(refused.json(), url).toMatchObject({ succeeded: false });
    }
  });

  it('sends every screen its page compressed and never cached stale', async () => {
    const screen = await app.inject({ method: 'GET', url: '/microchip-lookup', headers: { 'accept-encoding': 'br' } });
    expect(screen.statusCode).toBe(200);
    expect(screen.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'no-cache' });
    expect(brotliDecompressSync(screen.rawPayload).toString()).toBe(page);
  });

  it("answers 304 to a browser holding the screen's page, and the plain page to a browser taking no compression", async () => {
    const screen = await app.inject({ method: 'GET', url: '/pets/lost', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(screen.headers).toMatchObject({ 'content-type': 'text/html; charset=utf-8', vary: 'accept-encoding', etag: expect.stringMatching(/^"[\w-]{32}"$/) });
    const held = await app.inject({ method: 'GET', url: '/microchip-lookup', headers: { 'accept-encoding': 'gzip, deflate, br', 'if-none-match': screen.headers.etag as string } });
    expect(held.statusCode).toBe(304);
    expect(held.body).toBe('');
    const plain = await app.inject({ method: 'GET', url: '/microchip-lookup', headers: { 'accept-encoding': 'br;q=0, identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(page);
    expect(plain.headers.etag).not.toBe(screen.headers.etag);
  });

  it('serves a build made while the portal runs: its new scripts at once, its page within a second; no page while the build is under way, nor a script it removed; copies written after their script', async () => {
    const rebuilt = `${page}<p>new build</p>`;
    const newScript = 'console.log("new build");';
    writeBuilt(join(webRoot, 'assets', 'index-new456.js'), newScript);
    const added = await app.inject({ method: 'GET', url: '/assets/index-new456.js', headers: { 'accept-encoding': 'br' } });
    expect(added.headers).toMatchObject({ 'content-encoding': 'br', 'cache-control': 'public, max-age=31536000, immutable' });
    expect(brotliDecompressSync(added.rawPayload).toString()).toBe(newScript);
    const missing = await app.inject({ method: 'GET', url: '/assets/index-none789.js' });
    expect(missing.statusCode).toBe(404);
    expect(missing.json()).toMatchObject({ succeeded: false });
    // The build writes the compressed copies after the files: a script asked for in between gets them once they are there.
    const lateScript = join(webRoot, 'assets', 'index-late321.js');
    writeFileSync(lateScript, script);
    const beforeCopies = await app.inject({ method: 'GET', url: '/assets/index-late321.js', headers: { 'accept-encoding': 'br' } });
    expect(beforeCopies.headers['content-encoding']).toBeUndefined();
    expect(beforeCopies.body).toBe(script);
    writeFileSync(`${lateScript}.br`, brotliCompressSync(script));
    writeFileSync(`${lateScript}.gz`, gzipSync(script));

    rmSync(join(webRoot, 'index.html'));
    rmSync(join(webRoot, 'assets', 'index-new456.js'));
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const underWay = await app.inject({ method: 'GET', url: '/microchip-lookup' });
    expect(underWay.statusCode).toBe(404);
    expect((await app.inject({ method: 'GET', url: '/assets/index-new456.js' })).statusCode).toBe(404);
    const withCopies = await app.inject({ method: 'GET', url: '/assets/index-late321.js', headers: { 'accept-encoding': 'br' } });
    expect(withCopies.headers['content-encoding']).toBe('br');
    expect(brotliDecompressSync(withCopies.rawPayload).toString()).toBe(script);

    writeBuilt(join(webRoot, 'index.html'), rebuilt);
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const screen = await app.inject({ method: 'GET', url: '/microchip-lookup', headers: { 'accept-encoding': 'gzip' } });
    expect(screen.statusCode).toBe(200);
    expect(gunzipSync(screen.rawPayload).toString()).toBe(rebuilt);
    writeBuilt(join(webRoot, 'index.html'), page);
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  it('compresses JSON answers over 1 KB, and leaves smaller ones as they are', async () => {
    const states = await app.inject({ method: 'GET', url: '/api/v2/utilities/states', headers: { 'accept-encoding': 'br, gzip' } });
    expect(states.headers['content-encoding']).toBe('br');
    expect(JSON.parse(brotliDecompressSync(states.rawPayload).toString()).result.length).toBeGreaterThan(50);
    const health = await app.inject({ method: 'GET', url: '/api/v2/utilities/health-check', headers: { 'accept-encoding': 'br, gzip' } });
    expect(health.headers['content-encoding']).toBeUndefined();
    expect(health.json()).toMatchObject({ succeeded: true });
  });
});
