import type { HealthCheck, NamedItem, PublicSettings, StaticData, UserState } from '@petreg/contract';
import { asc, eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import { breeds, chipTypes, settings, species, states } from '../../db/schema.js';

export type UtilityService = ReturnType<typeof createUtilityService>;

export function createUtilityService(deps: { database: DatabaseHandle; config: Config }) {
  const { db } = deps.database;
  return {
    async staticData(): Promise<StaticData> {
      const [speciesList, brands] = await Promise.all([
        db.select({ id: species.id, name: species.name }).from(species).orderBy(asc(species.id)),
        db.select({ id: chipTypes.id, name: chipTypes.name }).from(chipTypes).orderBy(asc(chipTypes.id)),
      ]);
      return { species: speciesList, brands };
    },

    breedsBySpecies(speciesId: number): Promise<NamedItem[]> {
      return db
        .select({ id: breeds.id, name: breeds.name })
        .from(breeds)
        .where(eq(breeds.speciesId, speciesId))
        .orderBy(asc(breeds.id));
    },

    states(): Promise<UserState[]> {
      return db.select().from(states).orderBy(asc(states.name));
    },

    async settings(): Promise<PublicSettings> {
      const rows = await db.select().from(settings);
      const stored = new Map(rows.map((r) => [r.key, r.value]));
      return {
        enableQRcodeUpsell: stored.get('enableQRcodeUpsell') === true,
        clientSiteBase: deps.config.publicUrl,
        productionHost: deps.config.productionHost ?? null,
        languages: [
          { id: 'en', title: 'English' },
          { id: 'tr', title: 'Turkish' },
          { id: 'ar', title: 'Arabic' },
        ],
        socialSignIn: {
          googleClientId: deps.config.google.clientId ?? null,
          facebookAppId: deps.config.facebook.appId ?? null,
        },
        support: deps.config.support,
      };
    },

    async health(): Promise<HealthCheck> {
      const database = await deps.database.ping();
      return { status: database ? 'Healthy' : 'Unhealthy', database };
    },
  };
}
