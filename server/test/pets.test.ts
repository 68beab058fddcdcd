import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { messages, type AuthResult, type CreatedPet, type NamedItem, type Pet, type StaticData } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { auditLog, chips, pets } from '../src/db/schema.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { call, createTestApp, signUpOwner, type TestContext } from './helpers.js';

let ctx: TestContext;
let dog: number;
let cat: number;
let brand: number;
let dogBreeds: NamedItem[];
let catBreeds: NamedItem[];

beforeAll(async () => {
  ctx = await createTestApp();
  const data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
  dog = data.species.find((s) => s.name === 'Dog')!.id;
  cat = data.species.find((s) => s.name === 'Cat')!.id;
  brand = data.brands.find((b) => b.name === 'AVID')!.id;
  dogBreeds = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${dog}`)).body.result!;
  catBreeds = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${cat}`)).body.result!;
});
afterAll(() => ctx.close());

let chipCounter = 100_000_000;
/** A fresh 9-digit chip number, so tests never collide on the one-pet-per-chip rule. */
const newChip = () => String(chipCounter++ + Math.floor(Math.random() * 1000) * 100_000);

const registration = (overrides: Record<string, unknown> = {}) => {
  const chipId = newChip();
  return {
    name: 'Biscuit',
    chipId,
    confirmChip: chipId,
    chipTypeId: brand,
    speciesId: dog,
    breeds: dogBreeds.slice(0, 2),
    sex: 1,
    dob: '2021-04-02',
    lastRabiesVaccine: '2024-05-01',
    approximateWeight: 42,
    spayedNeutered: true,
    shareContactInfo: true,
    notes: 'Friendly, afraid of thunder.',
    image: null,
    ...overrides,
  };
};

async function createPet(token: string, overrides: Record<string, unknown> = {}) {
  return call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', { token, body: registration(overrides) });
}

async function photo(withGps: boolean, format: 'jpeg' | 'png' = 'jpeg') {
  let image = sharp({ create: { width: 2400, height: 1200, channels: 3, background: '#c08040' } });
  if (withGps) image = image.withExif({ IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '40/1 42/1 46/1' } });
  const buffer = await (format === 'jpeg' ? image.jpeg() : image.png()).toBuffer();
  return `data:image/${format};base64,${buffer.toString('base64')}`;
}

describe('POST Pet/create-pet', () => {
  it('registers a pet with its chip and answers the pet, enabled and plan', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { chipId: 'avid*123*456*789', confirmChip: 'AVID 123-456-789' });
    expect(status).toBe(200);
    const { pet, enabled, plan, warnings } = body.result!;
    expect(enabled).toBe(true);
    expect(plan).toBeNull();
    expect(warnings).toEqual([]);
    expect(pet).toMatchObject({
      name: 'Biscuit',
      species: 'Dog',
      speciesId: dog,
      petBreedList: expect.arrayContaining(dogBreeds.slice(0, 2).map((b) => b.id)),
      sex: 1,
      dob: '2021-04-02',
      approximateWeight: 42,
      isActive: false,
      subscriptionExpired: false,
      microchip1: '123456789',
      isChipActive: false,
      chips: [{ chipId: '123456789', chipTypeId: brand, isActive: false, oneTime: false, expirationDate: null }],
    });
    expect(pet.publicId).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('registers a pet without a chip', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { chipId: '', confirmChip: '', chipTypeId: null });
    expect(status).toBe(200);
    expect(body.result!.pet.chips).toEqual([]);
    expect(body.result!.pet.microchip1).toBeNull();
  });

  it.each([
    ['0A12345678', '0A12345678'],
    ['0b-1234-5678', '0B12345678'],
    ['985 141 000 123 456', '985141000123456'],
  ])('accepts chip %s as %s', async (chipId, stored) => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { chipId, confirmChip: stored });
    expect(status).toBe(200);
    expect(body.result!.pet.microchip1).toBe(stored);
  });

  it('warns, without refusing, about a 15-digit number that cannot be an ISO chip', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { chipId: '985999999999999', confirmChip: '985999999999999' });
    expect(status).toBe(200);
    expect(body.result!.warnings).toEqual([messages.chipImplausible]);
  });

  it('refuses a chip already on another pet, whatever its spelling, with a message naming the microchip id', async () => {
    const first = await signUpOwner(ctx.app);
    const second = await signUpOwner(ctx.app);
    const created = await createPet(first.token, { chipId: '111-222-333', confirmChip: '111222333' });
    expect(created.status).toBe(200);
    const { status, body } = await createPet(second.token, { chipId: '111 222 333', confirmChip: '111*222*333' });
    expect(status).toBe(409);
    expect(body.errors[0]).toContain('microchip id');
    const theirs = await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token: second.token });
    expect(theirs.body.result).toEqual([]);
  });

  it.each([
    [{ name: '' }, messages.petNameRequired],
    [{ name: 'B' }, messages.petNameMin2],
    [{ chipId: '12345678', confirmChip: '12345678' }, messages.chipTooShort],
    [{ chipId: '123456789012', confirmChip: '123456789012' }, messages.lookupLength],
    [{ chipId: 'ZZ12345678', confirmChip: 'ZZ12345678' }, messages.lookupLength],
    [{ chipId: '123456789', confirmChip: '' }, messages.chipNotConfirmed],
    [{ chipId: '123456789', confirmChip: '123456780' }, messages.chipsDoNotMatch],
    [{ chipTypeId: null }, messages.chipTypeRequired],
    [{ speciesId: null }, messages.petSpeciesRequired],
    [{ approximateWeight: 'heavy' }, messages.weightNotNumber],
    [{ notes: 'n'.repeat(201) }, messages.notesTooLong],
    [{ colour: 'c'.repeat(61) }, messages.colourTooLong],
    [{ colour: 'Black\nBcc: thief@evil.example' }, messages.controlCharacter],
    [{ colour: 'Black\u2028white chest' }, messages.controlCharacter],
    [{ dob: '2999-01-01' }, messages.dateInFuture],
  ])('refuses %j with the spec message and stores nothing', async (override, message) => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, override);
    expect(status).toBe(400);
    expect(body.errors).toEqual([message]);
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token })).body.result).toEqual([]);
  });

  it('keeps the colour and markings trimmed, takes 60 characters, and none when left empty', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { colour: '  Black and tan, white chest ' });
    expect(status).toBe(200);
    expect(body.result!.pet.colour).toBe('Black and tan, white chest');
    expect((await createPet(token, { colour: 'c'.repeat(60) })).body.result!.pet.colour).toBe('c'.repeat(60));
    expect((await createPet(token, { colour: '' })).body.result!.pet.colour).toBeNull();
    expect((await createPet(token)).body.result!.pet.colour).toBeNull();
  });

  it('keeps the colour for the owner and professionals: not on the public profile', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token, { colour: 'Brindle' })).body.result!;
    const profile = await call(ctx.app, 'GET', `pet/pet-profiles/${pet.publicId}`);
    expect(profile.status).toBe(200);
    expect(JSON.stringify(profile.body)).not.toContain('Brindle');
  });

  it('accepts 200 note characters and refuses a fourth breed', async () => {
    const { token } = await signUpOwner(ctx.app);
    expect((await createPet(token, { notes: 'n'.repeat(200) })).status).toBe(200);
    const fourth = await createPet(token, { breeds: dogBreeds.slice(0, 4) });
    expect(fourth.status).toBe(400);
    expect(fourth.body.errors).toEqual([messages.breedsMax]);
  });

  it('refuses breeds of another species', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { breeds: catBreeds.slice(0, 1) });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.breedsOfSpecies]);
  });

  it('stores a photo re-encoded without its metadata, under an unguessable name', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { status, body } = await createPet(token, { image: await photo(true) });
    expect(status).toBe(200);
    const { image, imageUrl } = body.result!.pet;
    expect(image).toMatch(/^[a-f0-9]{32}\.jpg$/);
    const served = await ctx.app.inject({ method: 'GET', url: imageUrl! });
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    const meta = await sharp(served.rawPayload).metadata();
    expect(meta.exif).toBeUndefined();
    expect(Math.max(meta.width, meta.height)).toBe(1600);
  });

  it('refuses a file that is not an image, whatever it claims, and stores nothing', async () => {
    const { token } = await signUpOwner(ctx.app);
    const fake = `data:image/png;base64,${Buffer.from('<?php echo "hi"; ?>').toString('base64')}`;
    const { status, body } = await createPet(token, { image: fake });
    expect(status).toBe(400);
    expect(body.errors).toEqual([messages.onlyImages]);
    expect((await call<Pet[]>(ctx.app, 'GET', 'pet/user-pets', { token })).body.result).toEqual([]);
    const uploads = join(ctx.outboxDir, 'uploads', 'pet-images');
    const before = readdirSync(uploads, { withFileTypes: true }).length;
    await createPet(token, { image: 'data:text/plain;base64,aGVsbG8=' });
    expect(readdirSync(uploads, { withFileTypes: true }).length).toBe(before);
  });

  it('answers 404 for an image name it could not have stored', async () => {
    for (const name of ['../../jwt-secret', 'nothing.jpg', `${'a'.repeat(32)}.jpg`]) {
      const response = await ctx.app.inject({ method: 'GET', url: `/api/v2/pet/pet-images/${encodeURIComponent(name)}` });
      expect(response.statusCode).toBe(404);
    }
  });

  it('needs a token', async () => {
    expect((await call(ctx.app, 'POST', 'Pet/create-pet', { body: registration() })).status).toBe(401);
    expect((await call(ctx.app, 'GET', 'pet/user-pets')).status).toBe(401);
  });
});

describe('reading and editing pets', () => {
  it('lists only the owner\'s pets, with status', async () => {
    const owner = await signUpOwner(ctx.app);
    const other = await signUpOwner(ctx.app);
    await createPet(owner.token, { name: 'Pepper' });
    await createPet(other.token, { name: 'Mocha' });
    const list = await call<Pet[]>(ctx.app, 'GET', 'pet/user-pet-list', { token: owner.token });
    expect(list.body.result!.map((p) => p.name)).toEqual(['Pepper']);
    expect(list.body.result![0]).toHaveProperty('status', null);
  });

  it('updates a pet through PUT Pet/pet-profile and PUT Pet/{id}, with the 3-character name rule', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token)).body.result!;
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1, name: 'Bo' };
    const short = await call(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: edit });
    expect(short.status).toBe(400);
    expect(short.body.errors).toEqual([messages.petNameMin3]);

    const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...edit, name: 'Bowie', breeds: [], sex: 2 } });
    expect(saved.status).toBe(200);
    expect(saved.body.result).toMatchObject({ id: pet.id, name: 'Bowie', breeds: [], sex: 2, image: null });
    const byId = await call<Pet>(ctx.app, 'PUT', `Pet/${pet.id}`, { token, body: { ...edit, name: 'Bowie Two' } });
    expect(byId.body.result!.name).toBe('Bowie Two');
    expect((await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token })).body.result!.name).toBe('Bowie Two');
  });

  it('answers every save with the pet as it is then stored, whatever the save changed', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token)).body.result!;
    const chipless = (await createPet(token, { chipId: '', confirmChip: '', chipTypeId: null })).body.result!.pet;
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1 };
    const otherBrand = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!.brands.find((b) => b.id !== brand)!.id;
    const saves = [
      { ...edit, name: 'Details kept', approximateWeight: 12.35, notes: 'Shy.' },
      { ...edit, breeds: [dogBreeds[3]!] },
      { ...edit, chipTypeId: otherBrand },
      { ...registration({ chipId: '', confirmChip: '', chipTypeId: null }), id: chipless.id, name: 'No chip yet' },
    ];
    for (const body of saves) {
      const saved = await call<Pet>(ctx.app, 'PUT', `Pet/${body.id}`, { token, body });
      expect(saved.status).toBe(200);
      expect(saved.body.result).toEqual((await call<Pet>(ctx.app, 'GET', `Pet/${body.id}`, { token })).body.result);
    }
  });

  it.runIf(process.env.TEST_DB === 'postgres')('answers a save that waited for the pet behind a payment with the chip the payment left', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token)).body.result!;
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1, name: 'Waited' };
    let saving: ReturnType<typeof call<Pet>> | undefined;
    // As a payment's completion does: the pet locked, its chip made active, then committed.
    await ctx.database.db.transaction(async (tx) => {
      await tx.select({ id: pets.id }).from(pets).where(eq(pets.id, pet.id)).for('update');
      await tx.update(chips).set({ isActive: true }).where(eq(chips.petId, pet.id));
      saving = call<Pet>(ctx.app, 'PUT', `Pet/${pet.id}`, { token, body: edit });
      await new Promise((resolve) => setTimeout(resolve, 300));
    });
    const saved = await saving!;
    expect(saved.status).toBe(200);
    expect(saved.body.result!.isChipActive).toBe(true);
    expect(saved.body.result).toEqual((await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token })).body.result);
  });

  it('keeps, swaps and repeats breeds through the edit form, and the list and the record agree', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token, { breeds: dogBreeds.slice(0, 2) })).body.result!;
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1 };
    const byName = (list: NamedItem[]) => [...list].sort((a, b) => a.name.localeCompare(b.name));
    for (const sent of [dogBreeds.slice(0, 2), [dogBreeds[1]!, dogBreeds[2]!], [dogBreeds[2]!, dogBreeds[2]!], [dogBreeds[0]!]]) {
      const saved = await call<Pet>(ctx.app, 'PUT', `Pet/${pet.id}`, { token, body: { ...edit, breeds: sent } });
      expect(saved.status).toBe(200);
      const expected = byName([...new Map(sent.map((b) => [b.id, b])).values()]);
      expect(saved.body.result!.breeds).toEqual(expected);
      expect((await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token })).body.result!.breeds).toEqual(expected);
      const [listed] = (await call<Pet[]>(ctx.app, 'GET', 'pet/user-pet-list', { token })).body.result!;
      expect(listed).toMatchObject({ breeds: expected, petBreedList: expected.map((b) => b.id), shortId: pet.shortId, chips: pet.chips });
    }
  });

  it('changes and clears the colour through the edit form; a refused colour leaves the stored one', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token, { colour: 'Black' })).body.result!;
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1 };
    const stored = async () => (await call<Pet>(ctx.app, 'GET', `Pet/${pet.id}`, { token })).body.result!.colour;

    const changed = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...edit, colour: 'Black, white socks' } });
    expect(changed.status).toBe(200);
    expect(changed.body.result!.colour).toBe('Black, white socks');
    for (const [colour, message] of [
      ['c'.repeat(61), messages.colourTooLong],
      ['Black\r\nwhite socks', messages.controlCharacter],
    ] as const) {
      const refused = await call(ctx.app, 'PUT', `Pet/${pet.id}`, { token, body: { ...edit, colour } });
      expect(refused.status).toBe(400);
      expect(refused.body.errors).toEqual([message]);
    }
    expect(await stored()).toBe('Black, white socks');

    const cleared = await call<Pet>(ctx.app, 'PUT', `Pet/${pet.id}`, { token, body: { ...edit, colour: null } });
    expect(cleared.body.result!.colour).toBeNull();
    expect(await stored()).toBeNull();
  });

  it('keeps the photo when the stored name is sent back, and refuses a name it did not store', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token, { image: await photo(false, 'png') })).body.result!;
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1, image: pet.image };
    expect((await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: edit })).body.result!.image).toBe(pet.image);
    const bad = await call(ctx.app, 'PUT', 'Pet/pet-profile', { token, body: { ...edit, image: 'someone-elses.jpg' } });
    expect(bad.status).toBe(400);
    expect(bad.body.errors).toEqual([messages.onlyImages]);
  });

  it('lets an administrator move a registration to a new chip number, freeing the old one, with an audit record', async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token)).body.result!;
    await ctx.database.db.update(chips).set({ isActive: true, oneTime: true }).where(eq(chips.petId, pet.id));
    await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
    const admin = (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
    const newNumber = newChip();
    const edit = { ...registration(), id: pet.id, chipId: newNumber, confirmChip: newNumber, image: await photo(false) };
    const saved = await call<Pet>(ctx.app, 'PUT', 'Pet/pet-profile', { token: admin.token, body: edit });
    const [entry] = await ctx.database.db.select().from(auditLog).where(eq(auditLog.entityId, String(pet.id)));
    expect(entry).toMatchObject({ actorUserId: admin.user.id, entity: 'pet', action: 'update' });
    expect(entry!.after).not.toHaveProperty('image');
    expect(saved.body.result!.chips).toEqual([expect.objectContaining({ chipId: newNumber, isActive: true, oneTime: true })]);
    const other = await signUpOwner(ctx.app);
    expect((await createPet(other.token, { chipId: pet.microchip1, confirmChip: pet.microchip1 })).status).toBe(200);
  });

  it('refuses to move a pet onto a chip another pet has', async () => {
    const { token } = await signUpOwner(ctx.app);
    const taken = (await createPet(token)).body.result!.pet.microchip1!;
    const { pet } = (await createPet(token)).body.result!;
    const { status, body } = await call(ctx.app, 'PUT', 'Pet/pet-profile', {
      token,
      body: { ...registration(), id: pet.id, chipId: taken, confirmChip: taken },
    });
    expect(status).toBe(409);
    expect(body.errors[0]).toContain('microchip id');
  });

  it("keeps one owner away from another owner's pet", async () => {
    const owner = await signUpOwner(ctx.app);
    const intruder = await signUpOwner(ctx.app);
    const { pet } = (await createPet(owner.token, { name: 'Juniper' })).body.result!;
    expect((await call(ctx.app, 'GET', `Pet/${pet.id}`, { token: intruder.token })).status).toBe(403);
    expect((await call(ctx.app, 'GET', `utilities/breeds-by-petid/${pet.id}`, { token: intruder.token })).status).toBe(403);
    const edit = { ...registration(), id: pet.id, chipId: pet.microchip1, confirmChip: pet.microchip1, name: 'Stolen' };
    expect((await call(ctx.app, 'PUT', 'Pet/pet-profile', { token: intruder.token, body: edit })).status).toBe(403);
    expect((await call(ctx.app, 'PUT', `Pet/${pet.id}`, { token: intruder.token, body: edit })).status).toBe(403);
    const [row] = await ctx.database.db.select().from(pets).where(eq(pets.id, pet.id));
    expect(row!.name).toBe('Juniper');
  });

  it('answers 404 for a pet that does not exist and 400 for a mismatched id', async () => {
    const { token } = await signUpOwner(ctx.app);
    expect((await call(ctx.app, 'GET', 'Pet/999999', { token })).status).toBe(404);
    const { pet } = (await createPet(token)).body.result!;
    const edit = { ...registration(), id: pet.id + 1000, chipId: '', confirmChip: '' };
    expect((await call(ctx.app, 'PUT', `Pet/${pet.id}`, { token, body: edit })).status).toBe(400);
  });

  it("lists the breeds of the pet's species", async () => {
    const { token } = await signUpOwner(ctx.app);
    const { pet } = (await createPet(token)).body.result!;
    const { body } = await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-petid/${pet.id}`, { token });
    expect(body.result).toEqual(dogBreeds);
  });
});
