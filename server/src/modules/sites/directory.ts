import {
  adminSitesPageSize,
  messages,
  normalisePhone,
  type adminSiteSchema,
  type adminSitesQuery,
  type AdminSite,
  type AdminSiteFilter,
  type AdminSitesPage,
  type RemovedSamples,
  type SiteAlertPreferences,
  type SiteKind,
  type SiteSource,
  type ZipPlace,
} from '@petreg/contract';
import { and, asc, count, desc, eq, getTableColumns, ilike, like, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { recordAudit } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { alertEmails, alertPreferences, emailUnsubscribes, sites, species } from '../../db/schema.js';
import { badRequest, notFound } from '../../errors.js';
import { findZip } from '../../geography.js';
import { toSite, type SiteRow } from './vets.js';
import type { Session } from '../../plugins/auth.js';

export type AdminSiteValues = z.output<typeof adminSiteSchema>;
export type SiteDirectory = ReturnType<typeof createSiteDirectory>;

/** The columns the administrators' form and a CSV row set; the rest (place id, photo, rating) belong to the maps service. */
export const directoryColumns = [
  'name',
  'practiceType',
  'email',
  'phoneNumber',
  'address1',
  'city',
  'state',
  'zipCode',
  'url',
  'receivesAlerts',
  'isActive',
] as const satisfies readonly (keyof SiteRow)[];
export type DirectoryValues = Pick<SiteRow, (typeof directoryColumns)[number]>;

/** A form's or a row's values as stored: the phone normalised, a blank city or state taken from the ZIP. */
export function directoryValues(input: AdminSiteValues, zip: ZipPlace, isActive: boolean): DirectoryValues {
  return {
    name: input.name,
    practiceType: input.kind,
    email: input.email,
    phoneNumber: input.phoneNumber && normalisePhone(input.phoneNumber),
    address1: input.address1,
    city: input.city ?? zip.city,
    state: input.state ?? zip.state,
    zipCode: input.zipCode,
    url: input.url,
    receivesAlerts: input.receivesAlerts,
    isActive,
  };
}

export const sameDirectoryValues = (values: DirectoryValues, row: DirectoryValues) => directoryColumns.every((column) => values[column] === row[column]);

/**
 * Changes a site and records it before and after. Its coordinates move to the new ZIP's centre only
 * when the ZIP changes (or it had none): a maps service's own coordinates are more precise.
 */
export async function updateSite(tx: Transaction, session: Session, before: SiteRow, values: DirectoryValues, zip: ZipPlace, action: string) {
  const moved = before.zipCode !== values.zipCode || before.latitude === null || before.longitude === null;
  const [after] = await tx
    .update(sites)
    .set({ ...values, ...(moved && { latitude: zip.latitude, longitude: zip.longitude }), updatedAt: new Date() })
    .where(eq(sites.id, before.id))
    .returning();
  await recordAudit(tx, { actorUserId: session.userId, action, entity: 'site', entityId: before.id, before, after });
}

/** What the list reads of a site's address besides the site: its choices, bounces and last alert (json). */
interface AddressRecord {
  preferences: SiteAlertPreferences | null;
  bounces: number;
  lastAlertAt: string | null;
}

export function toAdminSite(row: SiteRow, unsubscribed: boolean, address: AddressRecord): AdminSite {
  return {
    ...toSite(row),
    kind: row.practiceType as SiteKind,
    email: row.email,
    receivesAlerts: row.receivesAlerts,
    unsubscribed,
    alertPreferences: address.preferences,
    bounces: address.bounces,
    lastAlertAt: address.lastAlertAt && new Date(address.lastAlertAt).toISOString(),
    source: row.source as SiteSource,
    latitude: row.latitude,
    longitude: row.longitude,
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The text the trigram index (sites_search_trgm_idx) is built on: written the same, so the index serves it. */
const searchText = sql`(${sites.name} || ' ' || coalesce(${sites.address1}, '') || ' ' || coalesce(${sites.city}, ''))`;

/**
 * Which sites a search names: digits are the start of a ZIP, text with @ part of an e-mail, other
 * text part of the name, address or city. Substrings only: similarity ranking (as vet search does)
 * costs a second a search on a directory of tens of thousands of sites on PGlite.
 */
function searchCondition(query: string | undefined): SQL | undefined {
  if (!query) return undefined;
  if (/^\d{1,5}$/.test(query)) return like(sites.zipCode, `${query}%`);
  if (query.includes('@')) return ilike(sites.email, containsPattern(query));
  return sql`${searchText} ilike ${containsPattern(query)}`;
}

/**
 * Whether the site's e-mail address unsubscribed from alerts (the alert recipients' own rule: trimmed,
 * lower-case). The site's column is named with its table: in a select list drizzle writes a bare
 * "email", which inside this subquery would be the unsubscribes' own.
 */
const siteAddress = sql`lower(trim(${sites}.${sql.identifier(sites.email.name)}))`;
const unsubscribed = sql<boolean>`exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = ${siteAddress})`;

/**
 * The site's address as alerts know it: the choices it made through a preferences link, its bounced
 * alert e-mails and when the last alert reached it (alert_emails_recipient_delivered_idx serves both).
 * Aliased tables, for the same reason as above.
 */
const addressRecord = sql<AddressRecord>`json_build_object(
  'preferences', (select json_build_object(
      'species', (select array_agg(kind.name order by kind.name) from ${species} kind where kind.id = any(chosen.species_ids)),
      'radiusMiles', chosen.radius_miles, 'dailyCap', chosen.daily_cap, 'pausedUntil', chosen.paused_until)
    from ${alertPreferences} chosen where chosen.email = ${siteAddress}),
  'bounces', (select count(*) from ${alertEmails} sent where sent.recipient = ${siteAddress} and sent.status = 'bounced'),
  'lastAlertAt', (select max(sent.delivered_at) from ${alertEmails} sent where sent.recipient = ${siteAddress} and sent.kind = 'alert'))`;

const filterConditions: Record<AdminSiteFilter, SQL | undefined> = {
  all: undefined,
  active: eq(sites.isActive, true),
  inactive: eq(sites.isActive, false),
  sample: eq(sites.source, 'sample'),
  unsubscribed,
};

const activeSamples = and(eq(sites.source, 'sample'), eq(sites.isActive, true));

/** The administrators' directory of sites: every site, active or not, whatever its source. */
export function createSiteDirectory(deps: { db: Database }) {
  const { db } = deps;

  async function placeOf(zipCode: string): Promise<ZipPlace> {
    const zip = await findZip(db, zipCode);
    if (!zip) throw badRequest(messages.zipUnknown);
    return zip;
  }

  return {
    async list({ query, filter, page }: z.output<typeof adminSitesQuery>): Promise<AdminSitesPage> {
      const where = and(searchCondition(query), filterConditions[filter]);
      const [rows, [total], samples] = await Promise.all([
        db
          .select({ site: getTableColumns(sites), unsubscribed, address: addressRecord })
          .from(sites)
          .where(where)
          .orderBy(desc(sites.isActive), asc(sql`lower(${sites.name})`), asc(sites.id))
          .limit(adminSitesPageSize)
          .offset((page - 1) * adminSitesPageSize),
        db.select({ total: count() }).from(sites).where(where),
        db.$count(sites, activeSamples),
      ]);
      return { items: rows.map((row) => toAdminSite(row.site, row.unsubscribed, row.address)), total: total!.total, activeSamples: samples };
    },

    async create(session: Session, input: AdminSiteValues): Promise<{ id: number }> {
      const zip = await placeOf(input.zipCode);
      const values = directoryValues(input, zip, input.isActive ?? true);
      return db.transaction(async (tx) => {
        const [row] = await tx
          .insert(sites)
          .values({ ...values, latitude: zip.latitude, longitude: zip.longitude, source: 'admin', createdBy: session.userId })
          .returning();
        await recordAudit(tx, { actorUserId: session.userId, action: 'create', entity: 'site', entityId: row!.id, after: row });
        return { id: row!.id };
      });
    },

    async update(session: Session, id: number, input: AdminSiteValues): Promise<{ id: number }> {
      const zip = await placeOf(input.zipCode);
      await db.transaction(async (tx) => {
        const [before] = await tx.select().from(sites).where(eq(sites.id, id)).for('update');
        if (!before) throw notFound(messages.notFound);
        await updateSite(tx, session, before, directoryValues(input, zip, input.isActive ?? before.isActive), zip, 'update');
      });
      return { id };
    },

    /**
     * Switches the sample directory off, its alerts with it. The rows stay: owners who linked a
     * sample vet to a pet keep it. The seeding records that it ran, so the samples never come back.
     */
    async removeSamples(session: Session): Promise<RemovedSamples> {
      return db.transaction(async (tx) => {
        const removed = await tx
          .update(sites)
          .set({ isActive: false, receivesAlerts: false, updatedAt: new Date() })
          .where(activeSamples)
          .returning({ id: sites.id });
        const siteIds = removed.map((site) => site.id);
        await recordAudit(tx, {
          actorUserId: session.userId,
          action: 'remove-samples',
          entity: 'site',
          entityId: 'sample',
          after: { removed: siteIds.length, siteIds },
        });
        return { removed: siteIds.length };
      });
    },
  };
}
