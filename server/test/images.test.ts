import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { crc32 } from 'node:zlib';
import { limits, messages, type CreatedPet, type Pet, type StaticData, type User } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keptImage } from '../src/adapters/storage/images.js';
import { chips } from '../src/db/schema.js';
import { call, createTestApp, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

// The app stores uploads on disk under the test's temporary DATA_DIR.
let ctx: TestContext;
let data: StaticData;
beforeAll(async () => {
  ctx = await createTestApp();
  data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
});
afterAll(() => ctx.close());

const stored = (folder: 'pet-images' | 'user-images', name: string) => existsSync(join(ctx.outboxDir, 'uploads', folder, name));
const files = (folder: 'pet-images' | 'user-images') => readdirSync(join(ctx.outboxDir, 'uploads', folder)).sort();
const fileOf = (url: string | null) => url!.split('/').at(-1)!;

async function photo(color: string) {
  const png = await sharp({ create: { width: 30, height: 30, channels: 3, background: color } }).png().toBuffer();
  return `data:image/png;base64,${png.toString('base64')}`;
}

/** A PNG of a few dozen bytes whose header declares `width` × `height`: what an image bomb looks like before it is decoded. */
async function declaring(width: number, height: number) {
  const png = await sharp({ create: { width: 1, height: 1, channels: 3, background: '#888' } }).png().toBuffer();
  // The IHDR chunk follows the 8-byte signature: length, type, width, height, …, then its CRC over type and data.
  png.writeUInt32BE(width, 16);
  png.writeUInt32BE(height, 20);
  png.writeUInt32BE(crc32(png.subarray(12, 29)), 29);
  return `data:image/png;base64,${png.toString('base64')}`;
}

describe('an image of too many pixels', () => {
  it('is refused before it is decoded, with the message saying so; a pet is not created', async () => {
    const { token } = await signUpOwner(ctx.app);
    for (const [width, height] of [
      [100_000, 100_000],
      [8000, 6251],
    ] as const) {
      const image = await declaring(width, height);
      expect(image.length).toBeLessThan(200);
      const refused = await call(ctx.app, 'POST', 'Pet/create-pet', { token, body: { name: 'Biscuit', speciesId: data.species[0]!.id, image } });
      expect(refused, `${width} × ${height}`).toMatchObject({ status: 400, body: { errors: [messages.imageTooManyPixels] } });
    }
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token })).body.result).toEqual([]);
  });

  it("refuses more than limits.imagePixelsMax, which a 48-megapixel phone's photo is under", () => {
    expect(limits.imagePixelsMax).toBeGreaterThan(8064 * 6048);
    expect(8000 * 6251).toBeGreaterThan(limits.imagePixelsMax);
  });
});

describe('pet photos', () => {
  const pet = (chipId: string, image: string | null) => ({
    name: 'Biscuit',
    chipId,
    confirmChip: chipId,
    chipTypeId: data.brands[0]!.id,
    speciesId: data.species[0]!.id,
    image,
  });

  async function petWithPhoto(token: string) {
    const chipId = uniqueChip();
    const created = await call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', { token, body: pet(chipId, await photo('#aa3300')) });
    expect(created.status).toBe(200);
    return { chipId, created: created.body.result!.pet };
  }

  it('deletes the replaced photo, then the removed one', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { chipId, created } = await petWithPhoto(token);
    expect(stored('pet-images', created.image!)).toBe(true);

    const replaced = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...pet(chipId, await photo('#0033aa')), id: created.id } });
    expect(replaced.status).toBe(200);
    const second = replaced.body.result!.image!;
    expect(stored('pet-images', created.image!)).toBe(false);
    expect(stored('pet-images', second)).toBe(true);

    const removed = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...pet(chipId, ''), id: created.id } });
    expect(removed.body.result!.image).toBeNull();
    expect(stored('pet-images', second)).toBe(false);
  });

  it('keeps the photo when the update fails, and drops the new upload', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { created } = await petWithPhoto(token);
    // Only support moves a registered chip: the update fails inside its transaction.
    await ctx.database.db.update(chips).set({ isActive: true }).where(eq(chips.petId, created.id));
    const before = files('pet-images');
    const failed = await call(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...pet(uniqueChip(), await photo('#0033aa')), id: created.id } });
    expect(failed.status).toBe(409);
    expect(stored('pet-images', created.image!)).toBe(true);
    expect(files('pet-images')).toEqual(before);
    expect((await call<Pet>(ctx.app, 'GET', `Pet/${created.id}`, { token })).body.result!.image).toBe(created.image);
  });
});

describe('profile photos', () => {
  const profile = (email: string, photo: string | undefined, stateId = 1) => ({ firstName: 'Morgan', lastName: 'Lee', email, stateId, photo });

  it('deletes the replaced photo, then the removed one', async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const first = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email, await photo('#aa3300')) });
    const firstFile = fileOf(first.body.result!.data.photoUrl);
    expect(stored('user-images', firstFile)).toBe(true);

    const second = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email, await photo('#0033aa')) });
    const secondFile = fileOf(second.body.result!.data.photoUrl);
    expect(stored('user-images', firstFile)).toBe(false);
    expect(stored('user-images', secondFile)).toBe(true);

    const removed = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email, '') });
    expect(removed.body.result!.data.photoUrl).toBeNull();
    expect(stored('user-images', secondFile)).toBe(false);
  });

  it('keeps the photo when the update fails, and drops the new upload', async () => {
    const { token, user, input } = await signUpOwner(ctx.app);
    const first = await call<User>(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email, await photo('#aa3300')) });
    const file = fileOf(first.body.result!.data.photoUrl);
    const before = files('user-images');
    // A state that does not exist fails the update in the database, after the new photo was stored.
    const failed = await call(ctx.app, 'PUT', `Users/${user.id}`, { token, body: profile(input.email, await photo('#0033aa'), 999_999) });
    expect(failed.status).toBe(500);
    expect(stored('user-images', file)).toBe(true);
    expect(files('user-images')).toEqual(before);
    expect((await call<User>(ctx.app, 'GET', 'Users/current-user', { token })).body.result!.data.photoUrl).toBe(first.body.result!.data.photoUrl);
  });
});

describe('the photo a change keeps, decided under the row lock', () => {
  it('is the sent upload or removal, or, when the form kept the photo it was shown, the photo the row names now', () => {
    expect(keptImage('new.jpg', 'shown.jpg', 'shown.jpg')).toBe('new.jpg');
    expect(keptImage(null, 'shown.jpg', 'newer.jpg')).toBeNull();
    // Another edit replaced the photo after this form was read: keeping means keeping that newer photo.
    expect(keptImage('shown.jpg', 'shown.jpg', 'newer.jpg')).toBe('newer.jpg');
  });
});
