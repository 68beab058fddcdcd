import { and, eq, isNull, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { pets, users } from '../../db/schema.js';

/** Reminders queued in one transaction, at most; a run takes batch after batch until none is due. */
export const BATCH = 200;

/** A timestamp's calendar day in UTC (a date): a reminder's period. */
export const utcDay = (value: AnyPgColumn | SQL) => sql`((${value}) at time zone 'UTC')::date`;

/** A date as YYYY-MM-DD, as a reminder's period is written. */
export const dateText = (day: SQL) => sql<string>`to_char(${day}, 'YYYY-MM-DD')`;

/** Reminders reach only a pet that is on (not removed, nor switched off) of an account that is on (not closed, nor deactivated). */
export const remindable = and(eq(pets.isActive, true), isNull(pets.deletedAt), eq(users.isActive, true))!;
