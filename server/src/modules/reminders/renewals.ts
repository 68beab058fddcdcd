import { renewalReminderDays, type ReminderKind } from '@petreg/contract';
import { and, asc, eq, exists, gt, isNotNull, isNull, lte, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { checkoutSessions, chips, pets, reminders, users } from '../../db/schema.js';
import { timeAt, type Clock } from '../../worker/outbox.js';
import { queueReminders } from './claims.js';
import { renewalReminderEmail, type ReminderSettings } from './emails.js';
import { BATCH, dateText, remindable, utcDay } from './shared.js';

const DAY_MS = 86_400_000;

/**
 * Queues the reminders due `daysBefore` a yearly plan ends: plans ending in at most that many days
 * and more than the next reminder's (a plan the 30-day reminder missed gets only the 7-day one).
 * Each names the renewal state: on while the owner's subscription for the pet is active.
 */
async function remindBefore(db: Database, settings: ReminderSettings, clock: Clock, daysBefore: number, nextDays: number): Promise<number> {
  const kind = `renewal-${daysBefore}` as ReminderKind;
  const period = utcDay(chips.expirationDate);
  let queued = 0;
  for (;;) {
    const { found, sent } = await db.transaction(async (tx) => {
      const due = await tx
        .select({
          petId: pets.id,
          petName: pets.name,
          userId: users.id,
          email: users.email,
          firstName: users.firstName,
          endsAt: chips.expirationDate,
          period: dateText(period),
          renews: exists(
            tx
              .select({ one: sql`1` })
              .from(checkoutSessions)
              .where(
                and(
                  eq(checkoutSessions.petId, pets.id),
                  // A renewal paid by an earlier owner stopped when the pet changed hands.
                  eq(checkoutSessions.userId, pets.userId),
                  eq(checkoutSessions.subscriptionStatus, 'active'),
                  isNotNull(checkoutSessions.subscriptionId),
                ),
              ),
          ).mapWith(Boolean),
        })
        .from(chips)
        .innerJoin(pets, eq(pets.id, chips.petId))
        .innerJoin(users, eq(users.id, pets.userId))
        .where(
          and(
            remindable,
            eq(users.renewalReminders, true),
            isNull(chips.removedAt),
            eq(chips.isActive, true),
            eq(chips.oneTime, false),
            gt(chips.expirationDate, timeAt(clock, nextDays * DAY_MS)),
            lte(chips.expirationDate, timeAt(clock, daysBefore * DAY_MS)),
            notExists(tx.select({ one: sql`1` }).from(reminders).where(and(eq(reminders.petId, pets.id), eq(reminders.kind, kind), sql`${reminders.period} = ${period}`))),
          ),
        )
        .orderBy(asc(chips.expirationDate), asc(pets.id))
        .limit(BATCH);
      const reminded = due.map((pet) => ({
        petId: pet.petId,
        userId: pet.userId,
        kind,
        period: pet.period,
        recipient: pet.email,
        mail: renewalReminderEmail({ ...pet, endsAt: pet.endsAt! }, settings),
      }));
      return { found: due.length, sent: await queueReminders(tx, reminded) };
    });
    queued += sent;
    if (found < BATCH) return queued;
  }
}

/** The renewal reminders due now on the worker's clock, 30 days and 7 days before each yearly plan ends. */
export async function remindRenewals(db: Database, settings: ReminderSettings, clock: Clock): Promise<number> {
  const [first, second] = renewalReminderDays;
  return (await remindBefore(db, settings, clock, first, second)) + (await remindBefore(db, settings, clock, second, 0));
}
