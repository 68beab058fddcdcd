import type { Database } from '../../db/client.js';
import { clockOf } from '../../worker/outbox.js';
import { remindChipScans } from './anniversaries.js';
import type { ReminderSettings } from './emails.js';
import { remindRenewals } from './renewals.js';

export type { ReminderSettings } from './emails.js';

/** What one run of the reminders queued. */
export interface ReminderRun {
  renewals: number;
  chipScans: number;
}

/**
 * The worker's reminders (hourly): before yearly plans renew or end, and on chipped pets'
 * registration anniversaries, each once per period whatever the number of workers. The notice that
 * cover lapsed goes with the expiry sweep that ends it. `time` moves the run's clock (tests), as for
 * the outboxes.
 */
export async function sendReminders(db: Database, settings: ReminderSettings, time?: Date | (() => Date)): Promise<ReminderRun> {
  const clock = clockOf(time);
  return { renewals: await remindRenewals(db, settings, clock), chipScans: await remindChipScans(db, settings, clock) };
}
