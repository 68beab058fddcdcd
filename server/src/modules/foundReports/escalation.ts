import { and, asc, eq, inArray, isNotNull, isNull, notExists, sql } from 'drizzle-orm';
import type { Config } from '../../config.js';
import type { Database, Transaction } from '../../db/client.js';
import { backupContacts, chips, emailUnsubscribes, foundReports, mailOutbox, pets, sitePets, sites, species, users } from '../../db/schema.js';
import { clockOf, timeAt, type Clock } from '../../worker/outbox.js';
import { queueTexts } from '../texts/outbox.js';
import { liveLink } from '../sites/vets.js';
import { backupContactText, vetEmail, type EscalatedReport } from './escalationMessages.js';

/** How long a report may stay unopened before the backup contacts, then the pet's vets, are told (minutes). */
export type EscalationSettings = Config['foundReportEscalation'];

/** Reports escalated in one sweep, at most: the next sweep, a minute later, takes the rest. */
const BATCH = 100;

export interface EscalationRun {
  /** Reports whose owner's backup contacts were texted, and the texts queued. */
  backupReports: number;
  backupTexts: number;
  /** Reports whose pet's vets were e-mailed, and the e-mails queued. */
  vetReports: number;
  vetEmails: number;
}

/** The escalation's steps, each marked on the report when it was taken. */
type Step = 'backupContactsToldAt' | 'vetsToldAt';

/**
 * Claims the reports due for a step: not opened, not reunited, not yet told, made `afterMinutes` or
 * more ago on the sweep's clock, to an owner who still holds the pet (a report made to a previous
 * owner goes to nobody else: its finder wrote to that owner). Each is marked told in the claim itself
 * (rows locked, SKIP LOCKED), so of two workers sweeping at once only one tells anybody, and a report is told once.
 */
async function claimDue(tx: Transaction, step: Step, afterMinutes: number, clock: Clock) {
  const due = tx
    .select({ id: foundReports.id })
    .from(foundReports)
    .innerJoin(pets, and(eq(pets.id, foundReports.petId), eq(pets.userId, foundReports.ownerId), isNull(pets.deletedAt)))
    .where(
      and(
        isNull(foundReports.openedAt),
        isNull(foundReports.reunitedAt),
        isNull(foundReports[step]),
        sql`${foundReports.createdAt} <= ${timeAt(clock, -afterMinutes * 60_000)}`,
      ),
    )
    .orderBy(asc(foundReports.createdAt))
    .limit(BATCH)
    .for('update', { of: foundReports, skipLocked: true });
  return tx
    .update(foundReports)
    .set({ [step]: timeAt(clock) })
    .where(and(inArray(foundReports.id, due), isNull(foundReports[step])))
    .returning();
}

/** The claimed reports with their live pet's name and species and the owner's first name; a removed pet's are left out. */
async function withPetAndOwner(tx: Transaction, reports: (typeof foundReports.$inferSelect)[]): Promise<EscalatedReport[]> {
  if (reports.length === 0) return [];
  const rows = await tx
    .select({ petId: pets.id, petName: pets.name, species: species.name, userId: users.id, ownerFirstName: users.firstName })
    .from(pets)
    .innerJoin(users, eq(users.id, pets.userId))
    .leftJoin(species, eq(species.id, pets.speciesId))
    .where(and(inArray(pets.id, [...new Set(reports.map((r) => r.petId))]), isNull(pets.deletedAt)));
  return reports.flatMap((report) => {
    const pet = rows.find((row) => row.petId === report.petId);
    return pet ? [{ ...report, ...pet }] : [];
  });
}

/** The backup contacts whose number is confirmed, of the owners of unopened reports: each gets a text naming the finder's contact. */
async function tellBackupContacts(db: Database, settings: EscalationSettings, clock: Clock) {
  return db.transaction(async (tx) => {
    const reports = await withPetAndOwner(tx, await claimDue(tx, 'backupContactsToldAt', settings.backupAfterMinutes, clock));
    if (reports.length === 0) return { reports: 0, sent: 0 };
    const contacts = await tx
      .select({ userId: backupContacts.userId, phoneNumber: backupContacts.phoneNumber })
      .from(backupContacts)
      .where(
        and(
          inArray(backupContacts.userId, [...new Set(reports.map((r) => r.userId))]),
          isNull(backupContacts.deletedAt),
          isNotNull(backupContacts.phoneConfirmedAt),
        ),
      );
    const texts = reports.flatMap((report) =>
      contacts
        .filter((contact) => contact.userId === report.userId)
        .map((contact) => ({ to: contact.phoneNumber, kind: 'found-report-backup' as const, body: backupContactText(report), userId: report.userId })),
    );
    return { reports: reports.length, sent: await queueTexts(tx, texts) };
  });
}

/**
 * The pet's vets, for reports still unopened later on: each linked site that is active and has an
 * e-mail in the directory (once an address, less those that unsubscribed) gets the pet's name,
 * species and chips and the finder's contact and message, so the practice that knows the owner can call.
 */
async function tellVets(db: Database, settings: EscalationSettings, clock: Clock) {
  return db.transaction(async (tx) => {
    const reports = await withPetAndOwner(tx, await claimDue(tx, 'vetsToldAt', settings.vetsAfterMinutes, clock));
    if (reports.length === 0) return { reports: 0, sent: 0 };
    const petIds = [...new Set(reports.map((r) => r.petId))];
    const address = sql<string>`lower(trim(${sites.email}))`;
    const vets = await tx
      .selectDistinct({ petId: sitePets.petId, email: address })
      .from(sitePets)
      .innerJoin(sites, eq(sites.id, sitePets.siteId))
      .where(
        and(
          inArray(sitePets.petId, petIds),
          liveLink,
          eq(sites.isActive, true),
          sql`coalesce(trim(${sites.email}), '') <> ''`,
          notExists(tx.select({ email: emailUnsubscribes.email }).from(emailUnsubscribes).where(eq(emailUnsubscribes.email, address))),
        ),
      );
    const petChips = await tx
      .select({ petId: chips.petId, chipId: chips.chipId })
      .from(chips)
      .where(and(inArray(chips.petId, petIds), isNull(chips.removedAt)))
      .orderBy(asc(chips.id));
    const mails = reports.flatMap((report) => {
      const chipIds = petChips.filter((chip) => chip.petId === report.petId).map((chip) => chip.chipId);
      const email = vetEmail({ ...report, chipIds }, settings.vetsAfterMinutes);
      return vets.filter((vet) => vet.petId === report.petId).map((vet) => ({ recipient: vet.email, ...email }));
    });
    if (mails.length) await tx.insert(mailOutbox).values(mails);
    return { reports: reports.length, sent: mails.length };
  });
}

/**
 * The worker's escalation sweep (every minute) over found reports nobody opened: after
 * `backupAfterMinutes` the owner's confirmed backup contacts are texted, after `vetsAfterMinutes`
 * the pet's vets are e-mailed. Opening the report, or marking the pet reunited, stops both. `time`
 * moves the sweep's clock (tests), as for the outboxes.
 */
export async function escalateFoundReports(db: Database, settings: EscalationSettings, time?: Date | (() => Date)): Promise<EscalationRun> {
  const clock = clockOf(time);
  const backup = await tellBackupContacts(db, settings, clock);
  const vets = await tellVets(db, settings, clock);
  return { backupReports: backup.reports, backupTexts: backup.sent, vetReports: vets.reports, vetEmails: vets.sent };
}
