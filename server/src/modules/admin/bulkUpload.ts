import { randomUUID } from 'node:crypto';
import { messages, petUploadColumns, petUploadStatuses, type PetUploadResult } from '@petreg/contract';
import { sql } from 'drizzle-orm';
import { countStatuses, csvResultFile } from '../../csvFiles.js';
import { recordAudit } from '../../db/audit.js';
import { batches } from '../../db/batches.js';
import type { Database } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { loggable } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { readPetRows, rowReason } from './bulkUploadRows.js';
import { copyRegistry, emptyRegistry, registerChunk, type PetRowResult } from './bulkUploadRegister.js';

/** Rows registered in one transaction: few statements per chunk, and no lock held for long. */
const CHUNK_ROWS = 1000;
/** A chunk that lost a chip to a registration made at the same moment is walked again, and its row refused. */
const CHUNK_ATTEMPTS = 3;

export type BulkPetUpload = ReturnType<typeof createBulkPetUpload>;

/**
 * A shelter's CSV of pets (spec 2.7 bulk-pet-upload). Every row is checked with the registration
 * form's rules first; the good ones are registered a chunk at a time, each chunk in one
 * transaction with its audit entry, so a bad row never stops the others. A chip already
 * registered is skipped, and so are as many pets without a chip as their owner had before the
 * upload of the same name, species and date of birth: the same file uploaded twice registers
 * nothing twice, and two kittens of one name in one file are two pets.
 */
export function createBulkPetUpload(deps: { db: Database; publicUrl: string; log: { error(details: object, message: string): void } }) {
  const { db, publicUrl, log } = deps;
  return {
    async run(session: Session, upload: { file: Buffer; fileName: string | null; shelterEmail: string }): Promise<PetUploadResult> {
      const rows = await readPetRows(db, upload.file);
      const uploadId = randomUUID();
      let registry = emptyRegistry();
      const results: PetRowResult[] = [];
      for (const [index, chunk] of batches(rows, CHUNK_ROWS).entries()) {
        const first = index * CHUNK_ROWS + 1;
        let chunkResults: PetRowResult[] | null = null;
        for (let attempt = 1; chunkResults === null; attempt++) {
          const before = copyRegistry(registry);
          try {
            chunkResults = await db.transaction(async (tx) => {
              // One upload's chunk at a time: two at once could each find an owner or a pet missing and both add it.
              await tx.execute(sql`select pg_advisory_xact_lock(hashtext('pets:bulk-upload'))`);
              const writes = await registerChunk(tx, { publicUrl, shelterEmail: upload.shelterEmail }, registry, chunk);
              await recordAudit(tx, {
                actorUserId: session.userId,
                action: 'bulk-upload',
                entity: 'pet-upload',
                entityId: uploadId,
                after: {
                  fileName: upload.fileName,
                  shelterEmail: upload.shelterEmail,
                  rows: `${first}-${first + chunk.length - 1}`,
                  counts: countStatuses(petUploadStatuses, writes.results),
                  petIds: writes.petIds,
                  invitedUserIds: writes.invitedUserIds,
                },
              });
              return writes.results;
            });
          } catch (error) {
            registry = before;
            if (isUniqueViolation(error) && attempt < CHUNK_ATTEMPTS) continue;
            // Earlier chunks stay registered: the administrator still gets the result file, this chunk's good rows marked to upload again.
            log.error({ err: loggable(error), uploadId, rows: `${first}-${first + chunk.length - 1}` }, 'bulk pet upload: a chunk failed');
            chunkResults = chunk.map((row) => ({ cells: row.cells, status: 'error', reason: row.pet ? messages.petUploadNotProcessed : rowReason(row.errors) }));
          }
        }
        results.push(...chunkResults);
      }
      return csvResultFile(petUploadColumns, petUploadStatuses, results, 'bulk-pet-upload-result');
    },
  };
}
