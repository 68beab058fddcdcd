import type { Database } from '../../db/client.js';
import { breeds, chipTypes, species } from '../../db/schema.js';

interface Tables {
  speciesNames: Map<number, string>;
  breedSpecies: Map<number, number>;
  brands: Set<number>;
}

/** How often, at most, a number not among those read sends the portal to read the tables again. */
const REREAD_MS = 10_000;

/**
 * Species, breeds and chip brands, read once: they are seeded before the portal listens and never
 * change while it runs, and every save and read of a pet asks for them (three statements of a pet's
 * save, one of every pet list). A number not among them is looked for again, at most every ten
 * seconds, in case an instance started since seeded more, before it is refused.
 */
export function createPetReferences(db: Database) {
  let kept: Promise<Tables> | null = null;
  let readAt = -Infinity;

  function read(): Promise<Tables> {
    readAt = performance.now();
    const reading = Promise.all([
      db.select({ id: species.id, name: species.name }).from(species),
      db.select({ id: breeds.id, speciesId: breeds.speciesId }).from(breeds),
      db.select({ id: chipTypes.id }).from(chipTypes),
    ]).then(([speciesRows, breedRows, brandRows]) => ({
      speciesNames: new Map(speciesRows.map((s) => [s.id, s.name])),
      breedSpecies: new Map(breedRows.map((b) => [b.id, b.speciesId])),
      brands: new Set(brandRows.map((b) => b.id)),
    }));
    kept = reading;
    // A database out of reach is not remembered: the next call reads again.
    reading.catch(() => {
      if (kept === reading) kept = null;
    });
    return reading;
  }

  /** Whether the tables hold what `holds` looks for, read again (at most every ten seconds) before saying no. */
  async function hold(holds: (tables: Tables) => boolean): Promise<boolean> {
    if (holds(await (kept ?? read()))) return true;
    return performance.now() - readAt >= REREAD_MS && holds(await read());
  }

  return {
    speciesExists: (id: number) => hold((t) => t.speciesNames.has(id)),
    brandExists: (id: number) => hold((t) => t.brands.has(id)),
    /** Whether every breed is one of the species'. */
    breedsOf: (speciesId: number, breedIds: number[]) => hold((t) => breedIds.every((id) => t.breedSpecies.get(id) === speciesId)),
    /** Each species' name by its id. */
    async speciesNames(ids: number[]): Promise<Map<number, string>> {
      await hold((t) => ids.every((id) => t.speciesNames.has(id)));
      return (await (kept ?? read())).speciesNames;
    },
  };
}
