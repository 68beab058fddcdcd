import { and, asc, eq, exists, inArray, isNull, notExists, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { chips, pets, reminders, users } from '../../db/schema.js';
import { timeAt, type Clock } from '../../worker/outbox.js';
import { queueReminders } from './claims.js';
import { chipScanEmail, type ReminderSettings } from './emails.js';
import { BATCH, dateText, remindable, utcDay } from './shared.js';

/**
 * An anniversary the worker missed (it was stopped) is still sent for this many days after it;
 * later, the reminder waits for the next year's rather than arriving months late.
 */
const GRACE_DAYS = 7;

/** A current, registered chip on the pet. */
const chipOf = (petId: typeof pets.id) => and(eq(chips.petId, petId), isNull(chips.removedAt), eq(chips.isActive, true));

/**
 * The yearly "ask your vet to scan the chip" reminders due on the worker's clock: on each chipped
 * pet's registration anniversary (in UTC), once for each year.
 */
export async function remindChipScans(db: Database, settings: ReminderSettings, clock: Clock): Promise<number> {
  const today = utcDay(timeAt(clock));
  const registered = utcDay(pets.createdAt);
  const years = sql<number>`extract(year from age(${today}, ${registered}))::int`;
  const anniversary = sql`(${registered} + make_interval(years => ${years}))::date`;
  let queued = 0;
  for (;;) {
    const { found, sent } = await db.transaction(async (tx) => {
      const due = await tx
        .select({ petId: pets.id, petName: pets.name, userId: users.id, email: users.email, firstName: users.firstName, years, period: dateText(anniversary) })
        .from(pets)
        .innerJoin(users, eq(users.id, pets.userId))
        .where(
          and(
            remindable,
            eq(users.chipScanReminders, true),
            exists(tx.select({ one: sql`1` }).from(chips).where(chipOf(pets.id))),
            sql`${years} >= 1`,
            sql`${today} - ${anniversary} < ${GRACE_DAYS}`,
            notExists(
              tx
                .select({ one: sql`1` })
                .from(reminders)
                .where(and(eq(reminders.petId, pets.id), eq(reminders.kind, 'chip-scan'), sql`${reminders.period} = ${anniversary}`)),
            ),
          ),
        )
        .orderBy(asc(pets.id))
        .limit(BATCH);
      if (due.length === 0) return { found: 0, sent: 0 };
      const petChips = await tx
        .select({ petId: chips.petId, chipId: chips.chipId })
        .from(chips)
        .where(and(inArray(chips.petId, due.map((p) => p.petId)), isNull(chips.removedAt), eq(chips.isActive, true)))
        .orderBy(asc(chips.id));
      const reminded = due.map((pet) => ({
        petId: pet.petId,
        userId: pet.userId,
        kind: 'chip-scan' as const,
        period: pet.period,
        recipient: pet.email,
        mail: chipScanEmail({ ...pet, chipIds: petChips.filter((c) => c.petId === pet.petId).map((c) => c.chipId) }, settings),
      }));
      return { found: due.length, sent: await queueReminders(tx, reminded) };
    });
    queued += sent;
    if (found < BATCH) return queued;
  }
}
