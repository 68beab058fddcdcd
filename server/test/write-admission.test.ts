import { messages, type MicrochipLookup, type StaticData } from '@petreg/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { activatePet, call, createTestApp, registerPet, signUpOwner, uniqueChip, type TestContext } from './helpers.js';

/**
 * The embedded database runs one statement at a time: a write held up there holds up every write
 * behind it. Past 32 writes in progress the next is refused at once, and reads of kept answers go on.
 */
describe.runIf(process.env.TEST_DB === 'pglite')('writes queued on the embedded database', () => {
  let ctx: TestContext;
  beforeAll(async () => {
    ctx = await createTestApp();
  });
  afterAll(() => ctx.close());

  it('refuses the 33rd write in progress at once with 503 and Retry-After, serves kept answers meanwhile, and takes writes again once they answer', async () => {
    const { token } = await signUpOwner(ctx.app);
    const chip = uniqueChip();
    const pet = await registerPet(ctx.app, token, chip);
    await activatePet(ctx.database, pet.id);
    const lookup = () => call<MicrochipLookup>(ctx.app, 'GET', `utilities/microchip-lookup?id=${chip}`);
    expect((await lookup()).status).toBe(200);
    const { brands } = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
    const rename = (name: string) =>
      call(ctx.app, 'PUT', `Pet/${pet.id}`, {
        token,
        body: { id: pet.id, name, chipId: chip, confirmChip: chip, chipTypeId: brands[0]!.id, speciesId: pet.speciesId },
      });

    // The database held by a long statement, as by a burst of slow writes ahead.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let holding!: () => void;
    const holds = new Promise<void>((resolve) => (holding = resolve));
    const holder = ctx.database.db.transaction(async () => {
      holding();
      await held;
    });
    await holds;

    const waiting = Array.from({ length: 32 }, (_, i) => rename(`Biscuit ${i}`));
    const started = performance.now();
    const refused = await rename('Biscuit late');
    expect(performance.now() - started).toBeLessThan(1000);
    expect(refused.status).toBe(503);
    expect(refused.headers['retry-after']).toBe('1');
    expect(refused.body.errors).toEqual([messages.serviceUnavailable]);
    // Refused before its session is checked: a check read from the database would queue behind the writes let in.
    const unchecked = await call(ctx.app, 'PUT', `Pet/${pet.id}`, { token: 'not-a-session', body: { id: pet.id, name: 'Biscuit' } });
    expect(unchecked.status).toBe(503);
    // A kept answer needs no database.
    const kept = await lookup();
    expect(kept.status).toBe(200);
    expect(kept.body.result!.result?.id).toBe(chip);

    release();
    await holder;
    expect((await Promise.all(waiting)).map((answer) => answer.status)).toEqual(Array(32).fill(200));
    expect((await rename('Biscuit again')).status).toBe(200);
  });

  it('answers a kept answer asked over the network while writes queue, before the queue has drained', async () => {
    const { token } = await signUpOwner(ctx.app);
    const chip = uniqueChip();
    const pet = await registerPet(ctx.app, token, chip);
    await activatePet(ctx.database, pet.id);
    expect((await call(ctx.app, 'GET', `utilities/microchip-lookup?id=${chip}`)).status).toBe(200);
    const { brands } = (await call<StaticData>(ctx.app, 'GET', 'utilities/static-data')).body.result!;
    const address = await ctx.app.listen({ port: 0, host: '127.0.0.1' });

    // Writes of other pets, each several statements, queued at once.
    const others = await Promise.all(Array.from({ length: 30 }, () => registerPet(ctx.app, token, uniqueChip())));
    const written: number[] = [];
    const writes = others.map((other, i) =>
      call(ctx.app, 'PUT', `Pet/${other.id}`, {
        token,
        body: { id: other.id, name: `Rex ${i}`, chipId: other.chips[0]!.chipId, confirmChip: other.chips[0]!.chipId, chipTypeId: brands[0]!.id, speciesId: other.speciesId },
      }).then((answer) => {
        written.push(performance.now());
        return answer.status;
      }),
    );
    const answer = await fetch(`${address}/api/v2/utilities/microchip-lookup?id=${chip}`);
    const answeredAt = performance.now();
    expect(answer.status).toBe(200);
    expect(await Promise.all(writes)).toEqual(Array(30).fill(200));
    // Without turns, the request was read only once every write had run.
    expect(written.filter((at) => at > answeredAt).length).toBeGreaterThanOrEqual(15);
  });
});
