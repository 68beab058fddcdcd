import type { MailKind, ReminderKind } from '@petreg/contract';
import type { Transaction } from '../../db/client.js';
import { mailOutbox, reminders } from '../../db/schema.js';

/** A reminder found due: the pet, its owner, the kind and period it is sent once for, and its e-mail. */
export interface DueReminder {
  petId: number;
  userId: number;
  kind: ReminderKind;
  /** The plan's end date, or the anniversary, as YYYY-MM-DD. */
  period: string;
  recipient: string;
  mail: { kind: MailKind; subject: string; text: string; html: string };
}

const keyOf = (r: Pick<DueReminder, 'petId' | 'kind' | 'period'>) => `${r.petId} ${r.kind} ${r.period}`;

/**
 * Claims the reminders by their unique key (pet, kind, period) and queues the e-mail of each claimed
 * one, in the caller's transaction. A key another worker holds waits for its transaction and is then
 * skipped, so a reminder is sent once however many workers find it due. Answers the e-mails queued.
 */
export async function queueReminders(tx: Transaction, due: DueReminder[]): Promise<number> {
  if (due.length === 0) return 0;
  const claimed = await tx
    .insert(reminders)
    .values(due.map(({ petId, userId, kind, period }) => ({ petId, userId, kind, period })))
    .onConflictDoNothing()
    .returning({ petId: reminders.petId, kind: reminders.kind, period: reminders.period });
  const won = new Set(claimed.map(keyOf));
  const mails = due.filter((r) => won.delete(keyOf(r))).map((r) => ({ recipient: r.recipient, ...r.mail }));
  if (mails.length) await tx.insert(mailOutbox).values(mails);
  return mails.length;
}
