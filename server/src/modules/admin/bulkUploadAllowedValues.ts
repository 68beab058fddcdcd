import { sexes, type DownloadFile } from '@petreg/contract';
import { asc, eq } from 'drizzle-orm';
import { csvDownload } from '../../csvFiles.js';
import type { Database } from '../../db/client.js';
import { chipTypes, species, states } from '../../db/schema.js';

/**
 * The names a pets file's cells may hold, one column each (named as the template's), read from the
 * lists the upload checks them against: a shelter copies a value instead of guessing its spelling.
 * Cells are matched in any case; sex also takes M, F and U.
 */
export async function petUploadAllowedValues(db: Database): Promise<DownloadFile> {
  const [speciesRows, brandRows, stateRows] = await Promise.all([
    db.select({ name: species.name }).from(species).orderBy(asc(species.name)),
    db.select({ name: chipTypes.name }).from(chipTypes).orderBy(asc(chipTypes.name)),
    // A US registry's file names US states (bulkUploadRows reads the abbreviation as the US one).
    db.select({ abbreviation: states.abbreviation, name: states.name }).from(states).where(eq(states.countryAbbreviation, 'US')).orderBy(asc(states.abbreviation)),
  ]);
  const columns = [
    speciesRows.map((s) => s.name),
    sexes.map((s) => s.name),
    brandRows.map((b) => b.name),
    stateRows.map((s) => s.abbreviation),
    stateRows.map((s) => s.name),
  ];
  const length = Math.max(...columns.map((values) => values.length));
  const rows = Array.from({ length }, (_, i) => columns.map((values) => values[i] ?? ''));
  return csvDownload(['species', 'sex', 'chipBrand', 'ownerState', 'state name'], rows, 'bulk-pet-upload-allowed-values');
}
