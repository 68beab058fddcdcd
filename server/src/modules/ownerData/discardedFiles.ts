import { inArray, sql } from 'drizzle-orm';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { Database, Transaction } from '../../db/client.js';
import { discardedFiles } from '../../db/schema.js';

/** How many the worker deletes in one round; the next round takes the rest. */
const ROUND = 200;

/** Notes stored images to delete, in the transaction that stops naming them; answers the notes' ids. */
export async function discardFiles(tx: Transaction, files: { folder: string; name: string }[]): Promise<number[]> {
  if (files.length === 0) return [];
  const rows = await tx.insert(discardedFiles).values(files).returning({ id: discardedFiles.id });
  return rows.map((row) => row.id);
}

/**
 * Deletes the noted images (those of `ids`, or a round of the least tried), each note with its image. An image the
 * storage cannot delete now keeps its note, counted, for the worker's next round. Answers how many went.
 */
export async function deleteDiscardedFiles(db: Database, storage: FileStorage, ids?: number[]): Promise<{ deleted: number; left: number }> {
  if (ids?.length === 0) return { deleted: 0, left: 0 };
  const due = await db
    .select()
    .from(discardedFiles)
    .where(ids ? inArray(discardedFiles.id, ids) : undefined)
    // The least tried first: notes that keep failing never hold back newer ones past a round's size.
    .orderBy(discardedFiles.attempts, discardedFiles.id)
    .limit(ROUND);
  const gone = await Promise.all(
    due.map((file) =>
      storage.delete(file.folder, file.name).then(
        () => true,
        () => false,
      ),
    ),
  );
  const deleted = due.filter((_, i) => gone[i]).map((file) => file.id);
  const left = due.filter((_, i) => !gone[i]).map((file) => file.id);
  if (deleted.length) await db.delete(discardedFiles).where(inArray(discardedFiles.id, deleted));
  if (left.length) await db.update(discardedFiles).set({ attempts: sql`${discardedFiles.attempts} + 1` }).where(inArray(discardedFiles.id, left));
  return { deleted: deleted.length, left: left.length };
}
