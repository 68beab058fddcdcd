import { limits, messages, type CreatedPet, type NamedItem, type StaticData } from '@petreg/contract';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, registerPet, signUpOwner, type TestContext } from './helpers.js';

/** Issue 8: no input answers 500. Each case here answered 500 before the input rules were shared. */
let ctx: TestContext;
let token: string;
let userId: number;
let petId: number;
let dog: number;
let brand: number;
let dogBreeds: NamedItem[];

beforeAll(async () => {
  ctx = await createTestApp();
  const owner = await signUpOwner(ctx.app);
  token = owner.token;
  userId = owner.user.id;
  petId = (await registerPet(ctx.app, token)).id;
  const data = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
  dog = data.species[0]!.id;
  brand = data.brands[0]!.id;
  dogBreeds = (await call<NamedItem[]>(ctx.app, 'GET', `utilities/breeds-by-species/${dog}`)).body.result!;
});
afterAll(() => ctx.close());

const registration = (overrides: Record<string, unknown> = {}) => ({
  name: 'Biscuit',
  speciesId: dog,
  breeds: dogBreeds.slice(0, 1),
  dob: '2021-04-02',
  ...overrides,
});
const profile = (overrides: Record<string, unknown> = {}) => ({ id: petId, ...registration(), ...overrides });
const person = (overrides: Record<string, unknown> = {}) => ({
  firstName: 'Jamie',
  lastName: 'Rivera',
  email: `nul${Date.now()}@example.com`,
  ...overrides,
});

/** The status and errors of a call, so a failure shows what the server said. */
async function outcome(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: unknown) {
  const { status, body: envelope } = await call(ctx.app, method, path, { token, body });
  return { status, errors: envelope.errors };
}

describe('a NUL character', () => {
  it('in a body field answers 400', async () => {
    expect((await outcome('POST', 'Pet/create-pet', registration({ name: 'Bis\u0000cuit' }))).status).toBe(400);
    expect((await outcome('POST', 'Pet/create-pet', registration({ notes: 'a\u0000b' }))).status).toBe(400);
    expect((await outcome('PUT', `Users/${userId}`, person({ city: 'St\u0000Louis' }))).status).toBe(400);
    expect((await outcome('POST', 'Users/backup-contact', { name: 'Al\u0000ex', phoneNumber: '(415) 555-2671' })).status).toBe(400);
    expect((await outcome('POST', 'Users/login', { email: 'a@example.com', password: 'pass\u0000word' })).status).toBe(400);
  });

  it('in a query or a path answers 400', async () => {
    expect((await outcome('GET', 'utilities/microchip-lookup?id=12345678%00')).status).toBe(400);
    expect((await outcome('GET', 'payment/complete/%00')).status).toBe(400);
    expect((await outcome('GET', 'pet/pet-profiles/abc%00')).status).toBe(400);
    expect((await outcome('GET', 'pet/short-url-details/%00')).status).toBe(400);
    expect((await outcome('GET', 'Users/email-exists?email=a%00@example.com')).status).toBe(400);
  });
});

describe('a lone UTF-16 surrogate, which JSON allows and PostgreSQL refuses', () => {
  const lone = '\ud800';
  it('answers 400 in settings keys and values, where jsonb would refuse it', async () => {
    for (const settings of [{ theme: `dark${lone}` }, { [`theme${lone}`]: 'dark' }, { layout: { style: lone } }]) {
      const answer = await outcome('POST', 'auth/user/update', { data: { settings, shortcuts: [] } });
      expect(answer).toEqual({ status: 400, errors: [messages.invalidCharacter] });
    }
  });

  it('answers 400 in text fields; a well-formed emoji pair is kept', async () => {
    expect((await outcome('POST', 'Pet/create-pet', registration({ name: `Bis${lone}cuit` }))).errors).toEqual([messages.invalidCharacter]);
    expect((await outcome('POST', 'auth/user/update', { data: { settings: { mood: '\u{1F436}' }, shortcuts: [] } })).status).toBe(200);
    expect((await outcome('POST', 'Pet/create-pet', registration({ name: 'Biscuit \u{1F436}' }))).status).toBe(200);
  });
});

describe('an id beyond PostgreSQL integer', () => {
  const huge = 2147483648;

  it('in a path answers 400', async () => {
    for (const path of [`utilities/breeds-by-species/${huge}`, `Pet/${huge}`, `utilities/breeds-by-petid/${huge}`]) {
      expect((await outcome('GET', path)).status, path).toBe(400);
    }
    expect((await outcome('DELETE', `Users/BackupContact/${huge}`)).status).toBe(400);
    expect((await outcome('GET', `utilities/stripe-dashboard?uid=${huge}`)).status).toBe(400);
  });

  it('in a body answers 400 with the field message where the field has one', async () => {
    const species = await outcome('POST', 'Pet/create-pet', registration({ speciesId: huge }));
    expect(species).toEqual({ status: 400, errors: [messages.petSpeciesRequired] });
    expect((await outcome('POST', 'Pet/create-pet', registration({ breeds: [{ id: huge, name: 'x' }] }))).status).toBe(400);
    const chip = '985141000123456';
    expect((await outcome('POST', 'Pet/create-pet', registration({ chipId: chip, confirmChip: chip, chipTypeId: huge }))).status).toBe(400);
    expect((await outcome('PUT', `Users/${userId}`, person({ stateId: huge }))).status).toBe(400);
    expect((await outcome('PUT', 'Pet/update-plan', { id: huge, planId: 1 })).status).toBe(400);
    expect((await outcome('POST', 'Users/backup-contact', { id: huge, name: 'Alex', phoneNumber: '(415) 555-2671' })).status).toBe(400);
  });

  it('of the largest integer still answers 404, an id that does not exist', async () => {
    expect((await outcome('GET', 'Pet/2147483647')).status).toBe(404);
  });
});

describe('an impossible date', () => {
  for (const date of ['2024-02-30', '2021-02-29', '2023-06-31', '0000-01-01']) {
    it(`${date} answers 400 with the field's message`, async () => {
      expect(await outcome('POST', 'Pet/create-pet', registration({ dob: date }))).toEqual({ status: 400, errors: [messages.invalidDate] });
      expect(await outcome('PUT', 'Pet/pet-profile', profile({ lastRabiesVaccine: date }))).toEqual({
        status: 400,
        errors: [messages.invalidDate],
      });
    });
  }

  it('a real leap day is a date', async () => {
    expect((await outcome('POST', 'Pet/create-pet', registration({ dob: '2020-02-29' }))).status).toBe(200);
  });
});

describe('a line break or control character in a one-line field', () => {
  const refused = { status: 400, errors: [messages.controlCharacter] };

  it('answers 400 saying so, in names, addresses, phones, e-mails and search boxes; nothing is stored', async () => {
    for (const control of ['\n', '\r\n', '\t', '\u001b', '\u007f', '\u0085', '\u2028']) {
      const name = `Biscuit${control}Call 555-0199`;
      expect(await outcome('POST', 'Pet/create-pet', registration({ name })), JSON.stringify(control)).toEqual(refused);
      expect(await outcome('PUT', 'Pet/pet-profile', profile({ name }))).toEqual(refused);
      expect(await outcome('PUT', `Users/${userId}`, person({ firstName: `Jamie${control}` }))).toEqual(refused);
      expect(await outcome('PUT', `Users/${userId}`, person({ city: `St Louis${control}` }))).toEqual(refused);
      expect(await outcome('POST', 'Users/backup-contact', { name: 'Alex', phoneNumber: `(415) 555-2671${control}` })).toEqual(refused);
      expect(await outcome('POST', 'Users/signup', { firstName: 'Jamie', lastName: 'Rivera', email: `a${control}b@example.com`, phoneNumber: '(415) 555-2671', password: 'Secret#123' })).toEqual(refused);
      expect(await outcome('GET', `utilities/microchip-lookup?id=${encodeURIComponent(`985141000123456${control}`)}`)).toEqual(refused);
    }
    const names = (await call<{ name: string }[]>(ctx.app, 'GET', 'pet/user-pets', { token })).body.result!.map((p) => p.name);
    expect(names.filter((n) => n.includes('555'))).toEqual([]);
  });

  it('notes and an incident told keep their line breaks, not other control characters', async () => {
    const kept = await call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', { token, body: registration({ notes: 'Shy.\r\nAnswers to Bis.' }) });
    expect(kept.status).toBe(200);
    expect(kept.body.result!.pet.notes).toBe('Shy.\r\nAnswers to Bis.');
    expect(await outcome('POST', 'Pet/create-pet', registration({ notes: 'Shy.\tAnswers to Bis.' }))).toEqual(refused);
    expect(await outcome('PUT', 'Pet/pet-profile', profile({ incidentDescription: 'Ran off.\nNear the park.' }))).toMatchObject({ status: 200 });
    expect(await outcome('PUT', 'Pet/pet-profile', profile({ incidentDescription: 'Ran off.\u001b[2J' }))).toEqual(refused);
  });

  it('a password keeps what its owner typed', async () => {
    expect((await outcome('POST', 'Users/login', { email: 'nobody@example.com', password: 'tab\there' })).errors).not.toEqual([messages.controlCharacter]);
  });
});

describe('an impossible time of day or offset', () => {
  for (const missingDate of ['2024-01-01T25:00:00Z', '2024-01-01T10:61:00Z', '2024-01-01T10:00:00+99:00', '2024-01-01T10:00:60Z']) {
    it(`${missingDate} answers 400 with the field's message on every route taking a missing date`, async () => {
      const invalid = { status: 400, errors: [messages.invalidDate] };
      expect(await outcome('PUT', 'Pet/pet-profile', profile({ missingDate }))).toEqual(invalid);
      expect(await outcome('PUT', `Pet/${petId}`, profile({ missingDate }))).toEqual(invalid);
      const alert = { name: 'Biscuit', petId, missingDate, zipCode: '63101', incidentDescription: 'Slipped the leash.', status: 'NEW' };
      expect(await outcome('POST', 'petalert/send-mail-from-pet-alert', alert)).toEqual(invalid);
    });
  }
});

describe('a JSON body that is not an object', () => {
  for (const [method, path] of [
    ['POST', 'Pet/create-pet'],
    ['PUT', 'Pet/pet-profile'],
    ['PUT', 'Pet/{id}'],
    ['POST', 'Users/login'],
    ['POST', 'auth/user/update'],
  ] as const) {
    it(`answers 400 on ${method} ${path}`, async () => {
      for (const payload of ['null', '42', '"text"', '[]', 'true']) {
        const response = await ctx.app.inject({
          method,
          url: `/api/v2/${path.replace('{id}', String(petId))}`,
          payload,
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
        });
        expect(response.statusCode, payload).toBe(400);
        expect(response.json()).toMatchObject({ succeeded: false, result: null });
      }
    });
  }
});

describe("Fastify's own refusals", () => {
  it('answer in the envelope, in the product\'s words', async () => {
    const refusals = [
      { method: 'GET' as const, url: '/api/v2/Pet/%E0%A4%A', status: 400 },
      { method: 'POST' as const, url: '/api/v2/Users/login', payload: '{"email":', type: 'application/json', status: 400 },
      { method: 'POST' as const, url: '/api/v2/Users/login', payload: '<login/>', type: 'application/xml', status: 415 },
    ];
    for (const { method, url, payload, type, status } of refusals) {
      const headers = { authorization: `Bearer ${token}`, ...(type ? { 'content-type': type } : {}) };
      const response = await ctx.app.inject({ method, url, payload, headers });
      expect(response.statusCode, url).toBe(status);
      expect(response.json(), url).toEqual({ succeeded: false, result: null, errors: [messages.invalidRequest] });
    }
  });
});

describe('user settings', () => {
  const nested = (depth: number): unknown => (depth === 0 ? 'x' : { a: nested(depth - 1) });

  it('nested 5,000 deep answer 400', async () => {
    const deep = `{"data":{"settings":${'{"a":'.repeat(5000)}1${'}'.repeat(5000)},"shortcuts":[]}}`;
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/auth/user/update',
      payload: deep,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(400);
    expect(response.json()).toMatchObject({ succeeded: false, errors: [messages.invalidRequest] });
  });

  it('nested a little or too large answer 400; ordinary settings are kept', async () => {
    expect((await outcome('POST', 'auth/user/update', { data: { settings: nested(12), shortcuts: [] } })).status).toBe(400);
    const big = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`key${i}`, 'x'.repeat(100)]));
    expect((await outcome('POST', 'auth/user/update', { data: { settings: big, shortcuts: [] } })).status).toBe(400);
    const shortcuts = Array.from({ length: 51 }, (_, i) => `shortcut${i}`);
    expect((await outcome('POST', 'auth/user/update', { data: { settings: {}, shortcuts } })).status).toBe(400);
    const kept = await outcome('POST', 'auth/user/update', {
      data: { settings: { loginRedirectUrl: '/client/pet', layout: { style: 'compact' } }, shortcuts: ['pets'] },
    });
    expect(kept.status).toBe(200);
  });
});

describe('an oversized body', () => {
  it('is refused with 413 before it is parsed', async () => {
    const breeds = Array.from({ length: 200_000 }, (_, i) => ({ id: (i % 100) + 1, name: 'Labrador Retriever' }));
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/Pet/create-pet',
      payload: JSON.stringify(registration({ breeds, chipTypeId: brand })),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ succeeded: false, errors: [messages.imageTooLarge] });
  });

  it('within the limit of a photo route but holding a hundred thousand values is refused before it is parsed', async () => {
    const breeds = Array.from({ length: 100_000 }, () => ({ id: 1, name: 'Beagle' }));
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/Pet/create-pet',
      payload: JSON.stringify(registration({ breeds })),
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ succeeded: false, errors: [messages.requestTooLarge] });
  });

  it('on a photo route still takes a photo of almost the largest size, and refuses a larger one', async () => {
    /** A PNG of noise (which does not compress) of about `bytes`, as a data URL. */
    const noise = async (bytes: number) => {
      const side = Math.floor(Math.sqrt(bytes / 3));
      const png = await sharp({ create: { width: side, height: side, channels: 3, background: '#888', noise: { type: 'gaussian', mean: 128, sigma: 60 } } })
        .png({ compressionLevel: 0 })
        .toBuffer();
      return { size: png.length, dataUrl: `data:image/png;base64,${png.toString('base64')}` };
    };
    const fits = await noise(limits.imageUploadBytesMax * 0.95);
    expect(fits.size).toBeLessThan(limits.imageUploadBytesMax);
    const taken = await call<CreatedPet>(ctx.app, 'POST', 'Pet/create-pet', { token, body: registration({ image: fits.dataUrl }) });
    expect(taken.status).toBe(200);
    expect(taken.body.result!.pet.image).toMatch(/\.jpg$/);
    const tooLarge = await noise(limits.imageUploadBytesMax * 1.05);
    const refused = await call(ctx.app, 'POST', 'Pet/create-pet', { token, body: registration({ image: tooLarge.dataUrl }) });
    expect(refused).toMatchObject({ status: 413, body: { errors: [messages.imageTooLarge] } });
  });

  it('on a route without an image is refused far below the image size', async () => {
    const response = await ctx.app.inject({
      method: 'POST',
      url: '/api/v2/Users/login',
      payload: JSON.stringify({ email: 'a@example.com', password: 'x'.repeat(300_000) }),
      headers: { 'content-type': 'application/json' },
    });
    expect(response.statusCode).toBe(413);
    expect(response.json()).toMatchObject({ succeeded: false, errors: [messages.requestTooLarge] });
  });
});
