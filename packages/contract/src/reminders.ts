/**
 * The reminders the worker e-mails owners (issue 20): before a yearly plan renews or ends, when its
 * cover lapsed, and on each chipped pet's registration anniversary.
 */

/** What a sent reminder was: the plan's end 30 or 7 days away, its cover lapsed, or the yearly chip scan. */
export const reminderKinds = ['renewal-30', 'renewal-7', 'cover-lapsed', 'chip-scan'] as const;
export type ReminderKind = (typeof reminderKinds)[number];

/** Days before a yearly plan ends that the owner is reminded, farthest first. */
export const renewalReminderDays = [30, 7] as const;

/** The profile's switches for the reminders an owner may turn off (the lapse notice is always sent). */
export const reminderSwitches = {
  renewalReminders: 'E-mail me 30 and 7 days before a yearly plan renews or ends',
  chipScanReminders: "E-mail me each year to ask my vet to scan my pet's chip",
} as const;
