import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { breeds, chipTypes, species } from '../src/db/schema.js';
import { createPetReferences } from '../src/modules/pets/references.js';
import { createTestApp, type TestContext } from './helpers.js';

let ctx: TestContext;
beforeAll(async () => {
  ctx = await createTestApp();
});
afterAll(() => ctx.close());

/** The species, breeds and brands a pet's save checks, read once. */
describe('pet references', () => {
  it('knows the seeded ones, refuses others, and finds one added since after ten seconds', async () => {
    const references = createPetReferences(ctx.database.db);
    const [dog] = await ctx.database.db.select().from(species).limit(1);
    const [brand] = await ctx.database.db.select().from(chipTypes).limit(1);
    const [breed] = await ctx.database.db.select().from(breeds).limit(1);
    expect(await references.speciesExists(dog!.id)).toBe(true);
    expect(await references.brandExists(brand!.id)).toBe(true);
    expect(await references.breedsOf(breed!.speciesId, [breed!.id, breed!.id])).toBe(true);
    expect(await references.breedsOf(breed!.speciesId + 1000, [breed!.id])).toBe(false);
    expect((await references.speciesNames([dog!.id])).get(dog!.id)).toBe(dog!.name);

    const [added] = await ctx.database.db.insert(species).values({ name: `Axolotl ${Date.now()}` }).returning();
    const now = vi.spyOn(performance, 'now');
    try {
      // Read a moment ago: not looked for again yet.
      expect(await references.speciesExists(added!.id)).toBe(false);
      now.mockReturnValue(performance.now() + 10_001);
      expect(await references.speciesExists(added!.id)).toBe(true);
      expect((await references.speciesNames([added!.id])).get(added!.id)).toBe(added!.name);
    } finally {
      now.mockRestore();
    }
    expect(await references.speciesExists(-1)).toBe(false);
  });

  it('does not remember a failed read', async () => {
    let down = true;
    const db = ctx.database.db;
    const flaky = { select: (fields: never) => (down ? { from: () => Promise.reject(new Error('database out of reach')) } : db.select(fields)) };
    const references = createPetReferences(flaky as never);
    await expect(references.speciesExists(1)).rejects.toThrow('database out of reach');
    down = false;
    const [dog] = await db.select().from(species).limit(1);
    expect(await references.speciesExists(dog!.id)).toBe(true);
  });
});
