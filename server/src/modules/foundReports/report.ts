import { messages, normalisePhone, paths, withId, type FoundReport, type FoundReportSent, type FoundReportTarget } from '@petreg/contract';
import { and, count, eq, gt, isNotNull, isNull, sql } from 'drizzle-orm';
import type { FastifyBaseLogger } from 'fastify';
import { z } from 'zod';
import { discardImage, imageFolders, storeImage } from '../../adapters/storage/images.js';
import type { FileStorage } from '../../adapters/storage/index.js';
import type { Database } from '../../db/client.js';
import { backupContacts, chips, foundReports, mailOutbox, pets, users } from '../../db/schema.js';
import { AppError, notFound } from '../../errors.js';
import type { PublicService } from '../public/service.js';
import { queueTexts } from '../texts/outbox.js';
import { foundReportEmail, foundReportText } from './ownerNotice.js';

/**
 * Reports a pet takes in a day. Each one mails (and may text) its owner: past this, someone is
 * flooding the owner, and the finder is sent to the support line.
 */
export const reportsPerPetPerDay = 20;

/** The pet a finder names: by a chip number, or by the public id of its profile. */
export interface ReportTarget {
  chipId?: string | undefined;
  publicId?: string | undefined;
}

const isUuid = (value: string) => z.uuid().safeParse(value).success;

export type FoundReports = ReturnType<typeof createFoundReports>;

/** The finder's side of "Reach the owner": what the form shows, and the report the owner is told of. */
export function createFoundReports(deps: {
  db: Database;
  storage: FileStorage;
  publicUrl: string;
  publicPages: PublicService;
  log: Pick<FastifyBaseLogger, 'info'>;
}) {
  const { db, storage } = deps;

  const petAndOwner = {
    id: pets.id,
    name: pets.name,
    question: pets.verificationQuestion,
    ownerId: users.id,
    ownerEmail: users.email,
    ownerFirstName: users.firstName,
    ownerPhone: users.phoneNumber,
    ownerPhoneVerifiedAt: users.phoneVerifiedAt,
    textFoundReports: users.textFoundReports,
  };

  /**
   * The pet and its owner, found as the lookup or the profile finds it, so a finder learns no more
   * than those tell: a chip the lookup calls not registered (unknown, switched off, expired, its pet
   * removed or inactive, its owner's account switched off) is not registered here either; a public id
   * is found while its profile shows.
   */
  async function reachablePet(target: ReportTarget) {
    if (target.chipId !== undefined) {
      const lookup = await deps.publicPages.lookup(target.chipId);
      const [pet] = lookup.isRegistered
        ? await db
            .select(petAndOwner)
            .from(chips)
            .innerJoin(pets, eq(pets.id, chips.petId))
            .innerJoin(users, eq(users.id, pets.userId))
            .where(
              and(eq(chips.chipId, target.chipId), isNull(chips.removedAt), eq(chips.isActive, true), isNull(pets.deletedAt), eq(users.isActive, true)),
            )
        : [];
      if (!pet) throw notFound(messages.lookupNotRegistered);
      return { ...pet, chipId: target.chipId };
    }
    const publicId = target.publicId ?? '';
    const [pet] = isUuid(publicId)
      ? await db
          .select(petAndOwner)
          .from(pets)
          .innerJoin(users, eq(users.id, pets.userId))
          .where(and(eq(pets.publicId, publicId), isNull(pets.deletedAt), eq(users.isActive, true)))
      : [];
    if (!pet) throw notFound(messages.notFound);
    return { ...pet, chipId: null };
  }

  /** The sentence a finder reads: who was told. Backup contacts count once their number is confirmed. */
  async function sentSentence(ownerId: number): Promise<FoundReportSent> {
    const [backup] = await db
      .select({ id: backupContacts.id })
      .from(backupContacts)
      .where(and(eq(backupContacts.userId, ownerId), isNull(backupContacts.deletedAt), isNotNull(backupContacts.phoneConfirmedAt)))
      .limit(1);
    return { message: backup ? messages.foundReportSentWithBackups : messages.foundReportSent };
  }

  return {
    /** What the form needs: the question, and the pet's name only when its profile (which shows it) opened the form. */
    async target(target: ReportTarget): Promise<FoundReportTarget> {
      const pet = await reachablePet(target);
      return { petName: target.publicId !== undefined ? pet.name : null, question: pet.question };
    },

    /**
     * Keeps the report and, in the same transaction, queues the owner's e-mail and (to a verified
     * mobile, unless the owner opted out) text. A form whose hidden field is filled is a robot's:
     * it is answered as if sent, and nothing is kept or sent.
     */
    async report(input: FoundReport): Promise<FoundReportSent> {
      const pet = await reachablePet(input);
      const sent = await sentSentence(pet.ownerId);
      if (input.leaveBlank) {
        // Logged, so that real reports dropped this way would be seen.
        deps.log.info({ petId: pet.id }, 'a found report was dropped: its hidden field was filled');
        return sent;
      }
      const photo = input.photo ? await storeImage(storage, imageFolders.foundReports, input.photo) : null;
      const finder = { name: input.name, phone: input.phone ? normalisePhone(input.phone) : null, email: input.email };
      const question = input.answer ? pet.question : null;
      try {
        await db.transaction(async (tx) => {
          // One report at a time per pet, so the day's count below cannot be passed by reports sent at once.
          await tx.select({ id: pets.id }).from(pets).where(eq(pets.id, pet.id)).for('update');
          const [today] = await tx
            .select({ reports: count() })
            .from(foundReports)
            .where(and(eq(foundReports.petId, pet.id), gt(foundReports.createdAt, sql`now() - interval '1 day'`)));
          if (today!.reports >= reportsPerPetPerDay) throw new AppError(429, [messages.foundReportsPerPetExceeded]);
          const [report] = await tx
            .insert(foundReports)
            .values({
              petId: pet.id,
              ownerId: pet.ownerId,
              chipId: pet.chipId,
              finderName: finder.name,
              finderPhone: finder.phone,
              finderEmail: finder.email,
              message: input.message,
              location: input.where,
              photo,
              question,
              answer: question ? input.answer : null,
            })
            .returning({ id: foundReports.id });
          const reportUrl = `${deps.publicUrl}${withId(paths.clientFoundReports, report!.id)}`;
          const notice = { petName: pet.name, finder, message: input.message, reportUrl };
          await tx.insert(mailOutbox).values({
            recipient: pet.ownerEmail,
            ...foundReportEmail({ ...notice, ownerFirstName: pet.ownerFirstName, where: input.where, question, answer: input.answer, hasPhoto: photo !== null }),
          });
          if (pet.ownerPhone && pet.ownerPhoneVerifiedAt && pet.textFoundReports) {
            await queueTexts(tx, [{ to: pet.ownerPhone, kind: 'found-report', body: foundReportText(notice), userId: pet.ownerId }]);
          }
        });
      } catch (error) {
        await discardImage(storage, imageFolders.foundReports, photo, null);
        throw error;
      }
      return sent;
    },
  };
}
