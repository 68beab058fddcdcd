import { messages, normalisePhone, type BackupContact } from '@petreg/contract';
import type { z } from 'zod';
import type { backupContactSchema } from '@petreg/contract';
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { backupContacts } from '../../db/schema.js';
import { AppError, badRequest, notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';
import { askToConfirm, confirmByLink, type ConfirmationDeps } from './confirmation.js';

export type ContactService = ReturnType<typeof createContactService>;

/**
 * An owner's backup contacts: people to call when the owner cannot be reached. A new number is texted
 * a request to confirm it (a reply YES or the texted link); only a confirmed number is texted otherwise.
 */
export function createContactService(deps: ConfirmationDeps & { db: Database }) {
  const { db } = deps;
  const columns = {
    id: backupContacts.id,
    name: backupContacts.name,
    phoneNumber: backupContacts.phoneNumber,
    phoneConfirmed: sql<boolean>`${backupContacts.phoneConfirmedAt} is not null`,
  };
  /** Only the owner's own, live contacts: another owner's id looks like no contact at all. */
  const ownLive = (session: Session, id: number) =>
    and(eq(backupContacts.id, id), eq(backupContacts.userId, session.userId), isNull(backupContacts.deletedAt));

  async function read(id: number): Promise<BackupContact> {
    const [contact] = await db.select(columns).from(backupContacts).where(eq(backupContacts.id, id));
    return contact!;
  }

  return {
    list(session: Session): Promise<BackupContact[]> {
      return db
        .select(columns)
        .from(backupContacts)
        .where(and(eq(backupContacts.userId, session.userId), isNull(backupContacts.deletedAt)))
        .orderBy(asc(backupContacts.id));
    },

    /** Adds or edits a contact; a new number is asked to confirm (past the hour's texts, it stays unasked until Resend). */
    async save(session: Session, input: z.output<typeof backupContactSchema>): Promise<BackupContact> {
      const values = { name: input.name, phoneNumber: normalisePhone(input.phoneNumber)! };
      const id = await db.transaction(async (tx) => {
        const [before] = input.id
          ? await tx.select({ phoneNumber: backupContacts.phoneNumber }).from(backupContacts).where(ownLive(session, input.id)).for('update')
          : [undefined];
        if (input.id && !before) throw notFound(messages.notFound);
        const [saved] = input.id
          ? await tx.update(backupContacts).set({ ...values, updatedAt: new Date() }).where(ownLive(session, input.id)).returning({ id: backupContacts.id })
          : await tx.insert(backupContacts).values({ ...values, userId: session.userId }).returning({ id: backupContacts.id });
        if (before?.phoneNumber !== values.phoneNumber) {
          await tx.update(backupContacts).set({ phoneConfirmedAt: null, confirmationSentAt: null }).where(eq(backupContacts.id, saved!.id));
          await askToConfirm(tx, deps, { id: saved!.id, userId: session.userId, phoneNumber: values.phoneNumber });
        }
        return saved!.id;
      });
      return read(id);
    },

    /** POST Users/BackupContact/{id}/resend-confirmation: the request texted again, 5 texts an hour per account at most. */
    async resendConfirmation(session: Session, id: number): Promise<BackupContact> {
      await db.transaction(async (tx) => {
        const [contact] = await tx.select().from(backupContacts).where(ownLive(session, id)).for('update');
        if (!contact) throw notFound(messages.notFound);
        if (contact.phoneConfirmedAt) throw badRequest(messages.backupContactAlreadyConfirmed);
        if (!(await askToConfirm(tx, deps, contact))) throw new AppError(429, [messages.backupContactConfirmationsTooMany]);
      });
      return read(id);
    },

    /**
     * POST admin/backup-contact/{id}/resend-confirmation: support texts the request again for any
     * owner's contact, within that owner's 5 texts an hour; recorded in the audit log.
     */
    async resendConfirmationAsAdmin(session: Session, id: number): Promise<BackupContact> {
      await db.transaction(async (tx) => {
        const [contact] = await tx.select().from(backupContacts).where(and(eq(backupContacts.id, id), isNull(backupContacts.deletedAt))).for('update');
        if (!contact) throw notFound(messages.notFound);
        if (contact.phoneConfirmedAt) throw badRequest(messages.backupContactAlreadyConfirmed);
        if (!(await askToConfirm(tx, deps, contact))) throw new AppError(429, [messages.backupContactConfirmationsTooMany]);
        await recordAudit(tx, { actorUserId: session.userId, action: 'backup-contact.resend-confirmation', entity: 'backup_contact', entityId: id });
      });
      return read(id);
    },

    /** POST public/backup-contact/confirm: the texted link, followed by the contact. */
    async confirm(token: string): Promise<void> {
      if (!(await confirmByLink(db, deps, token))) throw badRequest(messages.backupContactLinkInvalid);
    },

    /** Removal keeps the row, marked with who removed it and when. */
    async remove(session: Session, id: number): Promise<void> {
      const [removed] = await db
        .update(backupContacts)
        .set({ deletedAt: new Date(), deletedBy: session.userId })
        .where(ownLive(session, id))
        .returning({ id: backupContacts.id });
      if (!removed) throw notFound(messages.notFound);
    },
  };
}
