import { messages, normalisePhone, type BackupContact } from '@petreg/contract';
import type { z } from 'zod';
import type { backupContactSchema } from '@petreg/contract';
import { and, asc, eq, isNull } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { backupContacts } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import type { Session } from '../../plugins/auth.js';

export type ContactService = ReturnType<typeof createContactService>;

/** An owner's backup contacts: people to call when the owner cannot be reached. */
export function createContactService(deps: { db: Database }) {
  const { db } = deps;
  const columns = { id: backupContacts.id, name: backupContacts.name, phoneNumber: backupContacts.phoneNumber };
  /** Only the owner's own, live contacts: another owner's id looks like no contact at all. */
  const ownLive = (session: Session, id: number) =>
    and(eq(backupContacts.id, id), eq(backupContacts.userId, session.userId), isNull(backupContacts.deletedAt));

  return {
    list(session: Session): Promise<BackupContact[]> {
      return db
        .select(columns)
        .from(backupContacts)
        .where(and(eq(backupContacts.userId, session.userId), isNull(backupContacts.deletedAt)))
        .orderBy(asc(backupContacts.id));
    },

    async save(session: Session, input: z.output<typeof backupContactSchema>): Promise<BackupContact> {
      const values = { name: input.name, phoneNumber: normalisePhone(input.phoneNumber)! };
      const [saved] = input.id
        ? await db.update(backupContacts).set({ ...values, updatedAt: new Date() }).where(ownLive(session, input.id)).returning(columns)
        : await db.insert(backupContacts).values({ ...values, userId: session.userId }).returning(columns);
      if (!saved) throw notFound(messages.notFound);
      return saved;
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
