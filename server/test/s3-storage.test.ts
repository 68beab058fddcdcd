import { execFile } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { messages, type CreatedPet, type Pet, type StaticData, type User } from '@petreg/contract';
import S3rver from 's3rver';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { eq } from 'drizzle-orm';
import { createBucketStorage } from '../src/adapters/storage/s3.js';
import { chips, discardedFiles, foundReports, pets } from '../src/db/schema.js';
import { loadConfig, type Env } from '../src/config.js';
import { call, createTestApp, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

// Both API projects may run this file at once: each has its own ports of the range.
const [S3_PORT, SILENT_PORT] = process.env.TEST_DB === 'postgres' ? [4132, 4133] : [4130, 4131];
const BUCKET = 'petreg-images';
const TIMEOUT_MS = 1000;
const root = resolve(import.meta.dirname, '../..');

/** The portal's settings for s3rver on `port` (its own credentials), or for whatever listens there. */
const bucketEnv = (port = S3_PORT): Env => ({
  S3_BUCKET: BUCKET,
  S3_ENDPOINT: `http://127.0.0.1:${port}`,
  S3_ACCESS_KEY_ID: 'S3RVER',
  S3_SECRET_ACCESS_KEY: 'S3RVER',
  S3_FORCE_PATH_STYLE: 'true',
  S3_TIMEOUT_MS: String(TIMEOUT_MS),
});

/** What the tests ask the bucket directly, as a second look beside the portal's answers. */
const bucket = createBucketStorage(loadConfig(bucketEnv()).s3!);

let s3Dir: string;
let s3: S3rver;
const startS3 = async () => {
  s3 = new S3rver({ address: '127.0.0.1', port: S3_PORT, directory: s3Dir, silent: true, configureBuckets: [{ name: BUCKET }] });
  await s3.run();
};

let ctx: TestContext;
let data: StaticData;
beforeAll(async () => {
  s3Dir = mkdtempSync(join(tmpdir(), 'petreg-s3-'));
  await startS3();
  ctx = await createTestApp({ env: bucketEnv() });
  data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
});
afterAll(async () => {
  await ctx.close();
  await s3.close();
  rmSync(s3Dir, { recursive: true, force: true });
});

async function photo(color: string) {
  const png = await sharp({ create: { width: 40, height: 30, channels: 3, background: color } }).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

const petForm = (chipId: string, image: string | null) => ({
  name: 'Biscuit',
  chipId,
  confirmChip: chipId,
  chipTypeId: data.brands[0]!.id,
  speciesId: data.species[0]!.id,
  image,
});

async function petWithPhoto(app: TestContext['app'], token: string) {
  const chipId = uniqueChip();
  const created = await call<CreatedPet>(app, 'POST', 'Pet/create-pet', { token, body: petForm(chipId, await photo('#aa3300')) });
  expect(created.status).toBe(200);
  return { chipId, pet: created.body.result!.pet };
}

const fetchImage = (app: TestContext['app'], path: string) => app.inject({ method: 'GET', url: `/api/v2/${path}` });
const isJpeg = (bytes: Buffer) => bytes.subarray(0, 3).equals(Buffer.from([0xff, 0xd8, 0xff]));

describe('images on an S3-compatible bucket, served through the portal', () => {
  it('stores the re-encoded upload in the bucket, not on disk, and streams it back with the same headers', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = await petWithPhoto(ctx.app, token);
    expect(await bucket.has('pet-images', pet.image!)).toBe(true);
    expect(existsSync(join(ctx.outboxDir, 'uploads'))).toBe(false);

    const served = await fetchImage(ctx.app, `pet/pet-images/${pet.image}`);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(isJpeg(served.rawPayload)).toBe(true);
    expect(served.rawPayload.equals((await bucket.get('pet-images', pet.image!))!)).toBe(true);
    expect(Number(served.headers['content-length'])).toBe(served.rawPayload.length);
    expect(await sharp(served.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 40, height: 30 });

    const square = await fetchImage(ctx.app, `pet/pet-images/${pet.image}?size=144`);
    expect(square.statusCode).toBe(200);
    expect(await sharp(square.rawPayload).metadata()).toMatchObject({ format: 'jpeg', width: 144, height: 144 });
  });

  it('answers 404 for an image the bucket does not hold', async () => {
    const missing = await fetchImage(ctx.app, `pet/pet-images/${'0'.repeat(32)}.jpg`);
    expect([missing.statusCode, missing.json().errors]).toEqual([404, [messages.notFound]]);
    expect((await fetchImage(ctx.app, `pet/pet-images/${'0'.repeat(32)}.jpg?size=288`)).statusCode).toBe(404);
    expect((await fetchImage(ctx.app, `Users/user-images/${'0'.repeat(32)}.jpg`)).statusCode).toBe(404);
  });

  it('refuses what is no image before anything reaches the bucket', async () => {
    const { token } = await signUpOwner(ctx.app);
    const refused = await call(ctx.app, 'POST', 'Pet/create-pet', { token, body: petForm(uniqueChip(), `data:image/png;base64,${Buffer.from('not a picture').toString('base64')}`) });
    expect([refused.status, refused.body.errors]).toEqual([400, [messages.onlyImages]]);
  });

  it("deletes a pet's replaced photo, then the removed one, from the bucket", async () => {
    const { token } = await signUpOwner(ctx.app);
    const { chipId, pet } = await petWithPhoto(ctx.app, token);
    const replaced = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...petForm(chipId, await photo('#0033aa')), id: pet.id } });
    const second = replaced.body.result!.image!;
    expect(await bucket.has('pet-images', pet.image!)).toBe(false);
    expect(await bucket.has('pet-images', second)).toBe(true);

    const removed = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...petForm(chipId, ''), id: pet.id } });
    expect(removed.body.result!.image).toBeNull();
    expect(await bucket.has('pet-images', second)).toBe(false);
  });

  it("deletes a profile's replaced photo from the bucket, and serves the new one", async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const profile = async (color: string) =>
      call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: { firstName: 'Morgan', lastName: 'Lee', email: input.email, stateId: 1, photo: await photo(color) } });
    const first = (await profile('#aa3300')).body.result!.data.photoUrl!.split('/').at(-1)!;
    const second = (await profile('#0033aa')).body.result!.data.photoUrl!.split('/').at(-1)!;
    expect(await bucket.has('user-images', first)).toBe(false);
    expect(await bucket.has('user-images', second)).toBe(true);
    const served = await fetchImage(ctx.app, `Users/user-images/${second}`);
    expect([served.statusCode, isJpeg(served.rawPayload)]).toEqual([200, true]);
  });

  it("keeps a finder's photo in the bucket, serves it to the owner, and deletes it with the closed account's other photos", async () => {
    const owner = await signUpOwner(ctx.app);
    const { pet } = await petWithPhoto(ctx.app, owner.token);
    // A paid registration: a finder can report the pet found.
    await ctx.database.db.update(pets).set({ isActive: true }).where(eq(pets.id, pet.id));
    await ctx.database.db.update(chips).set({ isActive: true, expirationDate: new Date(Date.now() + 365 * 86_400_000) }).where(eq(chips.petId, pet.id));
    const finder = { name: 'Robin Hale', phone: '(314) 555-0142', email: 'robin.hale@example.net', message: 'Found her by the park.', where: '63101' };
    const reported = await call(ctx.app, 'POST', 'public/found-report', { body: { publicId: pet.publicId, ...finder, photo: await photo('#22aa44') } });
    expect(reported.status).toBe(200);
    const [report] = await ctx.database.db.select().from(foundReports).where(eq(foundReports.petId, pet.id));
    expect(await bucket.has('found-report-images', report!.photo!)).toBe(true);
    const served = await ctx.app.inject({ method: 'GET', url: `/api/v2/found-reports/${report!.id}/photo`, headers: { authorization: `Bearer ${owner.token}` } });
    expect([served.statusCode, served.headers['cache-control'], isJpeg(served.rawPayload)]).toEqual([200, 'private, max-age=86400', true]);

    const closed = await call(ctx.app, 'POST', 'Users/close-account', { token: owner.token, body: { password: owner.input.password } });
    expect(closed.status).toBe(200);
    expect(await bucket.has('pet-images', pet.image!)).toBe(false);
    expect(await bucket.has('found-report-images', report!.photo!)).toBe(false);
  });
});

describe('two instances on one database and one bucket', () => {
  it('serves through one the image uploaded through the other', async () => {
    const second = await createTestApp({ env: bucketEnv(), instanceOf: ctx });
    try {
      const { token } = await signUpOwner(ctx.app);
      const { pet } = await petWithPhoto(ctx.app, token);
      const onSecond = await fetchImage(second.app, `pet/pet-images/${pet.image}`);
      expect(onSecond.statusCode).toBe(200);
      expect(onSecond.rawPayload.equals((await fetchImage(ctx.app, `pet/pet-images/${pet.image}`)).rawPayload)).toBe(true);
      // The second instance reads the first one's pet from the shared database, photo address included.
      const listed = await call<Pet[]>(second.app, 'GET', 'pet/user-pets', { token });
      expect(listed.body.result!.map((p) => p.image)).toEqual([pet.image]);
    } finally {
      await second.close();
    }
  });
});

describe('images served as short-lived signed addresses of the bucket', () => {
  it('redirects the image route to an address the bucket serves, and keeps a missing image 404', async () => {
    const signed = await createTestApp({ env: { ...bucketEnv(), S3_SIGNED_URLS: 'true', S3_SIGNED_URL_SECONDS: '60' }, instanceOf: ctx });
    try {
      const { token } = await signUpOwner(signed.app);
      const { pet } = await petWithPhoto(signed.app, token);
      const redirect = await fetchImage(signed.app, `pet/pet-images/${pet.image}`);
      expect(redirect.statusCode).toBe(302);
      expect(redirect.headers['cache-control']).toBe('private, max-age=30');
      const location = new URL(redirect.headers.location as string);
      expect(location.origin + location.pathname).toBe(`http://127.0.0.1:${S3_PORT}/${BUCKET}/pet-images/${pet.image}`);
      expect(location.searchParams.get('X-Amz-Expires')).toBe('60');
      expect(location.searchParams.get('X-Amz-Credential')).toMatch(/^S3RVER\/\d{8}\/us-east-1\/s3\/aws4_request$/);
      expect(location.searchParams.get('X-Amz-Signature')).toMatch(/^[0-9a-f]{64}$/);

      const fromBucket = await fetch(location);
      expect(fromBucket.status).toBe(200);
      expect(fromBucket.headers.get('content-type')).toBe('image/jpeg');
      expect(fromBucket.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
      expect(isJpeg(Buffer.from(await fromBucket.arrayBuffer()))).toBe(true);

      // The square copies are made by the portal, so served by it.
      const square = await fetchImage(signed.app, `pet/pet-images/${pet.image}?size=288`);
      expect([square.statusCode, square.headers['content-type']]).toEqual([200, 'image/jpeg']);
      expect((await fetchImage(signed.app, `pet/pet-images/${'1'.repeat(32)}.jpg`)).statusCode).toBe(404);
    } finally {
      await signed.close();
    }
  });
});

// Each run starts Node with tsx, which takes seconds on a busy machine.
describe('npm run storage:copy-to-s3', { timeout: 120_000 }, () => {
  const execute = promisify(execFile);
  async function copyCommand(env: Env) {
    const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
    delete childEnv.DATABASE_URL;
    try {
      const { stdout, stderr } = await execute('node', ['--import', 'tsx', 'server/src/cli.ts', 'storage:copy-to-s3'], { cwd: root, env: childEnv });
      return { code: 0, stdout, stderr };
    } catch (error) {
      const failed = error as { code: number; stdout: string; stderr: string };
      return { code: failed.code, stdout: failed.stdout, stderr: failed.stderr };
    }
  }

  let dataDir: string;
  const names = { 'pet-images': `${'a1'.repeat(16)}.jpg`, 'user-images': `${'b2'.repeat(16)}.jpg`, 'found-report-images': `${'c3'.repeat(16)}.jpg` };
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'petreg-copy-'));
    const jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#336699' } }).jpeg().toBuffer();
    for (const [folder, name] of Object.entries(names)) {
      mkdirSync(join(dataDir, 'uploads', folder), { recursive: true });
      writeFileSync(join(dataDir, 'uploads', folder, name), jpeg);
    }
    // A write the portal had not finished: never copied.
    writeFileSync(join(dataDir, 'uploads', 'pet-images', `.${'d4'.repeat(16)}.jpg.partial`), jpeg.subarray(0, 10));
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says the bucket is not set, and copies nothing', async () => {
    const run = await copyCommand({ DATA_DIR: dataDir });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('S3_BUCKET is not set');
  });

  it('counts every image as failed when the bucket cannot be reached, and exits 1', async () => {
    const run = await copyCommand({ DATA_DIR: dataDir, ...bucketEnv(SILENT_PORT) });
    expect(run.code).toBe(1);
    expect(run.stdout).toContain(`0 images copied to ${BUCKET}, 0 images already there, 3 failed`);
    expect(run.stderr).toContain('Run the command again');
    for (const [folder, name] of Object.entries(names)) expect(await bucket.has(folder, name)).toBe(false);
  });

  it('copies the disk images to the same folders of the bucket; a second run copies nothing', async () => {
    const first = await copyCommand({ DATA_DIR: dataDir, ...bucketEnv() });
    expect([first.code, first.stdout.trim()]).toEqual([0, `3 images copied to ${BUCKET}, 0 images already there, 0 failed`]);
    for (const [folder, name] of Object.entries(names)) expect(await bucket.has(folder, name)).toBe(true);
    expect(await bucket.has('pet-images', `.${'d4'.repeat(16)}.jpg.partial`)).toBe(false);

    const again = await copyCommand({ DATA_DIR: dataDir, ...bucketEnv() });
    expect([again.code, again.stdout.trim()]).toEqual([0, `0 images copied to ${BUCKET}, 3 images already there, 0 failed`]);
  });
});

describe('a bucket in trouble', () => {
  /** A server that takes connections and never answers: a frozen bucket. */
  let silent: Server;
  const held: Socket[] = [];
  beforeAll(async () => {
    silent = createServer((socket) => held.push(socket));
    await new Promise<void>((listening) => silent.listen(SILENT_PORT, '127.0.0.1', listening));
  });
  afterAll(async () => {
    for (const socket of held) socket.destroy();
    await new Promise((closed) => silent.close(closed));
  });

  const unavailable = { status: 503, errors: [messages.serviceUnavailable] };
  const answerOf = (response: { statusCode: number; json(): { errors: string[] } }) => ({ status: response.statusCode, errors: response.json().errors });

  it('answers 503 within the timeout when the bucket does not answer, for a read and an upload', async () => {
    const frozen = await createTestApp({ env: bucketEnv(SILENT_PORT), instanceOf: ctx });
    try {
      const { token } = await signUpOwner(frozen.app);
      let started = Date.now();
      const read = await fetchImage(frozen.app, `pet/pet-images/${'e5'.repeat(16)}.jpg`);
      expect(answerOf(read)).toEqual(unavailable);
      expect(read.headers['retry-after']).toBe('5');
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3000);

      started = Date.now();
      const upload = await call(frozen.app, 'POST', 'Pet/create-pet', { token, body: petForm(uniqueChip(), await photo('#aa3300')) });
      expect({ status: upload.status, errors: upload.body.errors }).toEqual(unavailable);
      expect(Date.now() - started).toBeLessThan(TIMEOUT_MS + 3000);
      expect((await call<Pet[]>(frozen.app, 'GET', 'pet/user-pets', { token })).body.result).toEqual([]);
    } finally {
      await frozen.close();
    }
  });

  it('answers 503 while the bucket is stopped, and serves the image again once it is back', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = await petWithPhoto(ctx.app, token);
    await s3.close();
    try {
      expect(answerOf(await fetchImage(ctx.app, `pet/pet-images/${pet.image}`))).toEqual(unavailable);
      expect(answerOf(await fetchImage(ctx.app, `pet/pet-images/${pet.image}?size=432`))).toEqual(unavailable);
      const upload = await call(ctx.app, 'POST', 'Pet/create-pet', { token, body: petForm(uniqueChip(), await photo('#0033aa')) });
      expect({ status: upload.status, errors: upload.body.errors }).toEqual(unavailable);
    } finally {
      await startS3();
    }
    expect((await fetchImage(ctx.app, `pet/pet-images/${pet.image}`)).statusCode).toBe(200);
  });

  it("closes an account while the bucket is stopped, and the worker deletes its photos once the bucket is back", async () => {
    const owner = await signUpOwner(ctx.app);
    const { pet } = await petWithPhoto(ctx.app, owner.token);
    const noted = () => ctx.database.db.select().from(discardedFiles).where(eq(discardedFiles.name, pet.image!));
    await s3.close();
    try {
      const closed = await call(ctx.app, 'POST', 'Users/close-account', { token: owner.token, body: { password: owner.input.password } });
      expect(closed.status).toBe(200);
      expect((await call(ctx.app, 'GET', 'Users/current-user', { token: owner.token })).status).toBe(401);
      // A round of the worker while the bucket is still down deletes nothing and keeps the note, with
      // two attempts counted: the closing's own and the round's.
      expect((await ctx.app.deleteDiscardedFiles()).left).toBeGreaterThanOrEqual(1);
      expect(await noted()).toEqual([expect.objectContaining({ folder: 'pet-images', attempts: 2 })]);
    } finally {
      await startS3();
    }
    expect(await bucket.has('pet-images', pet.image!)).toBe(true);
    expect((await ctx.app.deleteDiscardedFiles()).deleted).toBeGreaterThanOrEqual(1);
    expect(await bucket.has('pet-images', pet.image!)).toBe(false);
    expect(await noted()).toEqual([]);
  });
});

describe('the bucket settings', () => {
  const refusal = (env: Env) => {
    try {
      loadConfig(env);
      return null;
    } catch (error) {
      return (error as Error).message;
    }
  };

  it('are read together with S3_BUCKET, and a bad combination names what is wrong', () => {
    expect(refusal({ S3_ENDPOINT: 'http://127.0.0.1:9000', S3_FORCE_PATH_STYLE: 'true' })).toBe(
      'Invalid configuration: S3_BUCKET is required when S3_ENDPOINT, S3_FORCE_PATH_STYLE are set',
    );
    expect(refusal({ S3_BUCKET: BUCKET, S3_REGION: 'eu-west-1', S3_ACCESS_KEY_ID: 'AKIA' })).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY are set together');
    expect(refusal({ S3_BUCKET: BUCKET })).toContain('S3_REGION is required');
    expect(refusal({ S3_BUCKET: BUCKET, S3_REGION: 'eu-west-1', S3_SIGNED_URL_SECONDS: '60' })).toContain('S3_SIGNED_URL_SECONDS is only read with S3_SIGNED_URLS=true');
    expect(refusal({ S3_BUCKET: 'Not_A_Bucket', S3_REGION: 'eu-west-1' })).toMatch(/^Invalid configuration: S3_BUCKET must be a bucket name/);
    expect(refusal({ S3_BUCKET: BUCKET, S3_ENDPOINT: 'not an address' })).toMatch(/^Invalid configuration: S3_ENDPOINT/);
    expect(refusal({ S3_BUCKET: BUCKET, S3_REGION: 'eu-west-1', S3_SIGNED_URLS: 'true', S3_SIGNED_URL_SECONDS: '5' })).toBe(
      'Invalid configuration: S3_SIGNED_URL_SECONDS must be from 10 to 604800 seconds',
    );
  });

  it('default to the disk, and to images streamed through the portal', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: BUCKET, S3_REGION: 'eu-west-1' }).s3).toEqual({
      bucket: BUCKET,
      endpoint: undefined,
      region: 'eu-west-1',
      credentials: undefined,
      forcePathStyle: false,
      signedUrlSeconds: null,
      timeoutMs: 5000,
    });
    expect(loadConfig({ ...bucketEnv(), S3_SIGNED_URLS: 'true' }).s3).toMatchObject({ region: 'us-east-1', forcePathStyle: true, signedUrlSeconds: 300 });
  });
});
