import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import {
  messages,
  type HealthCheck,
  type LegalDocument,
  type LegalDocumentName,
  type NamedItem,
  type PublicSettings,
  type StaticData,
  type UserState,
  type ZipPlace,
} from '@petreg/contract';
import { asc, eq } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { DatabaseHandle } from '../../db/client.js';
import { breeds, chipTypes, settings, species, states } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { findZip } from '../../geography.js';
import { serverRoot } from '../../paths.js';

const legalTitles: Record<LegalDocumentName, string> = { privacy: 'Privacy Policy', terms: 'Terms of Service' };

/** The operator's file (PRIVACY_FILE / TERMS_FILE), else DATA_DIR/{name}.md, else the template shipped with the server. */
export function legalFile(config: Pick<Config, 'legalFiles' | 'dataDir'>, name: LegalDocumentName): string {
  const configured = config.legalFiles[name];
  if (configured) return configured;
  const inDataDir = join(config.dataDir, `${name}.md`);
  return existsSync(inDataDir) ? inDataDir : join(serverRoot, 'legal', `${name}.md`);
}

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
        mapTiles: deps.config.mapTiles,
      };
    },

    /** Read on every request, so an operator's edit shows without a restart. */
    async legal(name: LegalDocumentName): Promise<LegalDocument> {
      return { title: legalTitles[name], text: await readFile(legalFile(deps.config, name), 'utf8') };
    },

    /** A US ZIP code's place and centre, for the forms that search around a ZIP (vets, alerts). */
    async zipCode(zip: string): Promise<ZipPlace> {
      const place = await findZip(db, zip);
      if (!place) throw notFound(messages.zipUnknown);
      return place;
    },

    async health(): Promise<HealthCheck> {
      const database = await deps.database.ping();
      return { status: database ? 'Healthy' : 'Unhealthy', database };
    },
  };
}
