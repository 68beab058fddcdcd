import { API_BASE, foundReportsListMax, messages, type FoundReportDetail, type FoundReportList, type FoundReportSummary } from '@petreg/contract';
import { and, count, desc, eq, isNull, sql } from 'drizzle-orm';
import type { FileStorage } from '../../adapters/storage/index.js';
import { imageFolders, imageUrl, isStoredImageName } from '../../adapters/storage/images.js';
import type { Database, Transaction } from '../../db/client.js';
import { foundReports, pets } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { endOpenAlert } from '../alerts/found.js';

export type FoundInbox = ReturnType<typeof createFoundInbox>;

type ReportRow = typeof foundReports.$inferSelect;

/**
 * The reports made to the caller, of pets not removed. Owner-only, administrators included: a report
 * holds a stranger's contact meant for the owner it was made to (not whoever holds the pet later),
 * and reading it marks it opened, which stops the escalation.
 */
const ownReports = (session: Session) => and(eq(foundReports.ownerId, session.userId), isNull(pets.deletedAt));

const summaryColumns = {
  id: foundReports.id,
  petId: foundReports.petId,
  ownerId: foundReports.ownerId,
  petName: pets.name,
  petImage: pets.image,
  petUserId: pets.userId,
  finderName: foundReports.finderName,
  location: foundReports.location,
  createdAt: foundReports.createdAt,
  openedAt: foundReports.openedAt,
  reunitedAt: foundReports.reunitedAt,
};

const iso = (date: Date | null) => date?.toISOString() ?? null;

type PetOfReport = { petName: string; petImage: string | null; petUserId: number };

function toSummary(
  row: Pick<ReportRow, 'id' | 'petId' | 'ownerId' | 'finderName' | 'location' | 'createdAt' | 'openedAt' | 'reunitedAt'> & PetOfReport,
): FoundReportSummary {
  return {
    id: row.id,
    petId: row.petId,
    petName: row.petName,
    petImageUrl: imageUrl('pets', row.petImage),
    finderName: row.finderName,
    location: row.location,
    createdAt: row.createdAt.toISOString(),
    opened: row.openedAt !== null,
    reunited: row.reunitedAt !== null,
    petTransferred: row.petUserId !== row.ownerId,
  };
}

function toReport(row: ReportRow & PetOfReport): FoundReportDetail {
  return {
    ...toSummary(row),
    finderPhone: row.finderPhone,
    finderEmail: row.finderEmail,
    message: row.message,
    // The finder's photo is the owner's to see only: served to the signed-in owner, never publicly.
    photoUrl: row.photo ? `${API_BASE}/found-reports/${row.id}/photo` : null,
    question: row.question,
    answer: row.answer,
    openedAt: iso(row.openedAt),
    phoneSharedAt: iso(row.phoneSharedAt),
    reunitedAt: iso(row.reunitedAt),
    backupContactsToldAt: iso(row.backupContactsToldAt),
    vetsToldAt: iso(row.vetsToldAt),
  };
}

/** One of the reports made to the caller, with its pet's name and photo; 404 for any other, as for one that does not exist. */
export async function findOwnReport(db: Database | Transaction, session: Session, id: number) {
  const [row] = await db
    .select({ report: foundReports, petName: pets.name, petImage: pets.image, petUserId: pets.userId })
    .from(foundReports)
    .innerJoin(pets, eq(pets.id, foundReports.petId))
    .where(and(eq(foundReports.id, id), ownReports(session)));
  if (!row) throw notFound(messages.notFound);
  return { ...row.report, petName: row.petName, petImage: row.petImage, petUserId: row.petUserId };
}

/**
 * One of the caller's reports that the caller may still act on: its pet is still theirs. A report
 * whose pet went to another owner is read-only (403): the previous owner must not send the new
 * owner's pet's finder a phone number, nor end the new owner's alert.
 */
export async function findActionableReport(db: Database | Transaction, session: Session, id: number) {
  const report = await findOwnReport(db, session, id);
  if (report.petUserId !== report.ownerId) throw new AppError(403, [messages.foundReportPetTransferred]);
  return report;
}

/** The owner's side of found reports: the inbox, a report opened, and "Mark as reunited". */
export function createFoundInbox(deps: { db: Database; storage: FileStorage }) {
  const { db, storage } = deps;

  const unreadCount = async (session: Session) => {
    const [row] = await db
      .select({ unread: count() })
      .from(foundReports)
      .innerJoin(pets, eq(pets.id, foundReports.petId))
      .where(and(ownReports(session), isNull(foundReports.openedAt)));
    return row?.unread ?? 0;
  };

  /** The report as it now stands. */
  const read = async (session: Session, id: number) => toReport(await findOwnReport(db, session, id));

  return {
    /** GET found-reports: the newest reports of the caller's pets, and how many are unopened. */
    async list(session: Session): Promise<FoundReportList> {
      const rows = await db
        .select(summaryColumns)
        .from(foundReports)
        .innerJoin(pets, eq(pets.id, foundReports.petId))
        .where(ownReports(session))
        .orderBy(desc(foundReports.createdAt), desc(foundReports.id))
        .limit(foundReportsListMax);
      return { items: rows.map(toSummary), unread: await unreadCount(session) };
    },

    /** GET found-reports/{id}/photo: the finder's photo, to the owner only; null when the report has none. */
    async photo(session: Session, id: number): Promise<Buffer | null> {
      const { photo } = await findOwnReport(db, session, id);
      // Always through the portal, never a signed address of the bucket: the finder's photo is the owner's only.
      return photo && isStoredImageName(photo) ? storage.get(imageFolders.foundReports, photo) : null;
    },

    /** GET found-reports/unread-count: the shell's badge. */
    async unread(session: Session) {
      return { unread: await unreadCount(session) };
    },

    /** GET found-reports/{id}: the report, marked opened the first time, which stops its escalation. */
    async open(session: Session, id: number): Promise<FoundReportDetail> {
      const report = await findOwnReport(db, session, id);
      if (report.openedAt) return toReport(report);
      const [opened] = await db
        .update(foundReports)
        .set({ openedAt: sql`coalesce(${foundReports.openedAt}, now())` })
        .where(eq(foundReports.id, report.id))
        .returning({ openedAt: foundReports.openedAt });
      return toReport({ ...report, openedAt: opened!.openedAt });
    },

    /**
     * POST found-reports/{id}/reunited: the pet is home. Its open alert ends as "Mark as found" ends
     * it (the alert's recipients are thanked), and every report of the pet made to this owner is
     * settled, so none of them goes on to the backup contacts or the vets. Marking it again changes
     * nothing. Only while the pet is still the owner's (403 after a transfer).
     */
    async reunited(session: Session, id: number): Promise<FoundReportDetail> {
      const report = await findActionableReport(db, session, id);
      await db.transaction(async (tx) => {
        await endOpenAlert(tx, report.petId);
        await tx
          .update(foundReports)
          .set({ reunitedAt: sql`now()`, openedAt: sql`coalesce(${foundReports.openedAt}, now())` })
          .where(and(eq(foundReports.petId, report.petId), eq(foundReports.ownerId, report.ownerId), isNull(foundReports.reunitedAt)));
      });
      return read(session, id);
    },
  };
}
