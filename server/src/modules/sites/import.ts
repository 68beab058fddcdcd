import {
  adminSiteSchema,
  messages,
  siteCsvColumns,
  siteImportLimits,
  siteImportStatuses,
  siteKinds,
  type SiteImportResult,
  type SiteImportStatus,
  type ZipPlace,
} from '@petreg/contract';
import { asc, inArray, sql } from 'drizzle-orm';
import { csvResultFile, readCsvRows, type CsvFileRules, type CsvRowResult } from '../../csvFiles.js';
import { batches } from '../../db/batches.js';
import { recordAudits, type AuditEntry } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { sites } from '../../db/schema.js';
import { findZips } from '../../geography.js';
import type { Session } from '../../plugins/auth.js';
import { directoryValues, sameDirectoryValues, updateSite, type AdminSiteValues, type DirectoryValues } from './directory.js';
import type { SiteRow } from './vets.js';

type Column = (typeof siteCsvColumns)[number];
type Cells = Record<Column, string>;

/** A row that passed the form's checks; `alertsGiven` is false when its receivesAlerts cell was blank. */
interface CheckedRow {
  cells: Cells;
  input?: AdminSiteValues;
  alertsGiven: boolean;
  errors: string[];
}

type RowResult = CsvRowResult<Column, SiteImportStatus>;

/** Columns a sites file cannot do without: every site needs them, and they find a site already listed. */
const siteFileRules: CsvFileRules<Column> = {
  columns: siteCsvColumns,
  required: ['name', 'kind', 'zipCode'],
  maxRows: siteImportLimits.maxRows,
  messages: {
    fileRequired: messages.csvFileRequired,
    unreadable: messages.csvUnreadable,
    columnsMissing: messages.csvColumnsMissing,
    noRows: messages.csvNoRows,
    tooManyRows: messages.csvTooManyRows,
  },
};
const yes = new Set(['yes', 'y', 'true', '1']);
const no = new Set(['no', 'n', 'false', '0', '']);

/** Spreadsheets drop a ZIP's leading zero (02134 becomes 2134), and people write ZIP+4. */
function zipOfCell(cell: string): string {
  const text = cell.trim();
  if (/^\d{4}$/.test(text)) return `0${text}`;
  if (/^\d{5}-\d{4}$/.test(text)) return text.slice(0, 5);
  return text;
}

/** Checks a row with the administrators' form schema; kinds are matched whatever their case. */
function checkRow(cells: Cells): CheckedRow {
  const alertsCell = cells.receivesAlerts.trim().toLowerCase();
  const receivesAlerts = yes.has(alertsCell) ? true : no.has(alertsCell) ? false : null;
  const kind = siteKinds.find((k) => k.toLowerCase() === cells.kind.trim().toLowerCase()) ?? cells.kind;
  const parsed = adminSiteSchema.safeParse({ ...cells, kind, zipCode: zipOfCell(cells.zipCode), receivesAlerts: receivesAlerts ?? false });
  const errors = [...new Set(parsed.error?.issues.map((issue) => issue.message) ?? [])];
  if (receivesAlerts === null) errors.push(messages.csvReceivesAlertsInvalid);
  return { cells, input: errors.length === 0 ? parsed.data : undefined, alertsGiven: alertsCell !== '', errors };
}

/** An update from a row: its blank cells keep what the site has. */
function filledFrom(input: AdminSiteValues, site: DirectoryValues, alertsGiven: boolean): AdminSiteValues {
  return {
    ...input,
    email: input.email ?? site.email,
    phoneNumber: input.phoneNumber ?? site.phoneNumber,
    address1: input.address1 ?? site.address1,
    city: input.city ?? site.city,
    state: input.state ?? site.state,
    url: input.url ?? site.url,
    receivesAlerts: alertsGiven ? input.receivesAlerts : site.receivesAlerts,
  };
}

function resultFile(results: RowResult[]): SiteImportResult {
  return csvResultFile(siteCsvColumns, siteImportStatuses, results, 'sites-import-result');
}

/** A site of the file's ZIP codes as the import leaves it: one already listed, or one the file adds. */
interface Entry {
  /** The site as listed before the import; null for a site the file adds. */
  before: SiteRow | null;
  values: DirectoryValues;
  zip: ZipPlace;
  /** Listed sites by id, then added ones in the file's order: a row names the first that matches. */
  order: number;
}

/**
 * The sites of the file's ZIP codes, found by ZIP and lower-case name or by ZIP and e-mail. It
 * follows the rows as they add and change sites, so a later row finds what an earlier one wrote.
 */
function siteIndex(zips: Map<string, ZipPlace>, listed: SiteRow[]) {
  const entries: Entry[] = [];
  const byKey = new Map<string, Entry[]>();
  const nameKey = (v: Pick<DirectoryValues, 'zipCode' | 'name'>) => `${v.zipCode} name ${v.name.toLowerCase()}`;
  const emailKey = (v: Pick<DirectoryValues, 'zipCode' | 'email'>) => (v.email ? `${v.zipCode} email ${v.email.toLowerCase()}` : null);
  const keysOf = (entry: Entry) => [nameKey(entry.values), emailKey(entry.values)].filter((key) => key !== null);
  const file = (entry: Entry) => keysOf(entry).forEach((key) => byKey.set(key, [...(byKey.get(key) ?? []), entry]));
  const first = (key: string | null) => (key && byKey.get(key)?.reduce((a, b) => (b.order < a.order ? b : a))) || undefined;
  const add = (entry: Entry) => {
    entries.push(entry);
    file(entry);
  };
  for (const site of listed) add({ before: site, values: site, zip: zips.get(site.zipCode!)!, order: site.id });
  return {
    entries,
    find: (input: AdminSiteValues) => first(nameKey(input)) ?? first(emailKey(input)),
    add: (values: DirectoryValues, zip: ZipPlace) => add({ before: null, values, zip, order: 2 ** 31 + entries.length }),
    change(entry: Entry, values: DirectoryValues) {
      for (const key of keysOf(entry)) byKey.set(key, byKey.get(key)!.filter((e) => e !== entry));
      entry.values = values;
      file(entry);
    },
  };
}

/** What each row does to the directory, in the file's order. */
function walk(rows: CheckedRow[], zips: Map<string, ZipPlace>, index: ReturnType<typeof siteIndex>): RowResult[] {
  return rows.map((row): RowResult => {
    const zip = row.input && zips.get(row.input.zipCode);
    if (!row.input) return { cells: row.cells, status: 'error', reason: row.errors.join(' ') };
    if (!zip) return { cells: row.cells, status: 'error', reason: messages.zipUnknown };
    const entry = index.find(row.input);
    if (!entry) {
      index.add(directoryValues(row.input, zip, true), zip);
      return { cells: row.cells, status: 'created', reason: '' };
    }
    const values = directoryValues(filledFrom(row.input, entry.values, row.alertsGiven), zip, entry.values.isActive);
    if (sameDirectoryValues(values, entry.values)) return { cells: row.cells, status: 'skipped', reason: messages.csvRowUnchanged };
    index.change(entry, values);
    return { cells: row.cells, status: 'updated', reason: '' };
  });
}

/** Adds the new sites, changes the changed ones, and audits each. */
async function write(tx: Transaction, session: Session, entries: Entry[]) {
  const audits: AuditEntry[] = [];
  for (const batch of batches(entries.filter((entry) => !entry.before))) {
    const rows = await tx
      .insert(sites)
      .values(batch.map(({ values, zip }) => ({ ...values, latitude: zip.latitude, longitude: zip.longitude, source: 'import', createdBy: session.userId })))
      .returning();
    audits.push(...rows.map((row) => ({ actorUserId: session.userId, action: 'import-create', entity: 'site', entityId: row.id, after: row })));
  }
  for (const { before, values, zip } of entries) {
    if (before && !sameDirectoryValues(values, before)) await updateSite(tx, session, before, values, zip, 'import-update');
  }
  for (const batch of batches(audits)) await recordAudits(tx, batch);
}

export type SiteImport = ReturnType<typeof createSiteImport>;

/**
 * A CSV of sites into the directory. Every row is checked first; then the good ones are written in
 * one transaction, so a bad row never stops the good ones. A row naming a site already listed (same
 * name, or same e-mail, at the same ZIP) updates it, so importing a file twice adds nothing twice.
 * Every site added or changed gets its own audit entry, with the site before and after.
 */
export function createSiteImport(deps: { db: Database }) {
  const { db } = deps;
  return {
    async run(session: Session, file: Buffer): Promise<SiteImportResult> {
      const rows = readCsvRows(file, siteFileRules).map(checkRow);
      const zips = await findZips(db, rows.flatMap((row) => (row.input ? [row.input.zipCode] : [])));
      const results = await db.transaction(async (tx) => {
        // One import at a time: two at once could each find a new site missing and both add it.
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('sites:import'))`);
        const listed = zips.size ? await tx.select().from(sites).where(inArray(sites.zipCode, [...zips.keys()])).orderBy(asc(sites.id)).for('update') : [];
        const index = siteIndex(zips, listed);
        const results = walk(rows, zips, index);
        await write(tx, session, index.entries);
        return results;
      });
      return resultFile(results);
    },
  };
}
