import { sql, type SQL } from 'drizzle-orm';

/**
 * The time zone most of each US state (and territory) keeps. Alert e-mails show the time a pet went
 * missing as readers near where it was last seen read clocks; a state split between zones shows
 * its larger part's time, and says which zone it means.
 */
const stateTimeZones: Record<string, string> = {
  AL: 'America/Chicago', AK: 'America/Anchorage', AZ: 'America/Phoenix', AR: 'America/Chicago', CA: 'America/Los_Angeles',
  CO: 'America/Denver', CT: 'America/New_York', DC: 'America/New_York', DE: 'America/New_York', FL: 'America/New_York',
  GA: 'America/New_York', HI: 'Pacific/Honolulu', IA: 'America/Chicago', ID: 'America/Boise', IL: 'America/Chicago',
  IN: 'America/Indiana/Indianapolis', KS: 'America/Chicago', KY: 'America/New_York', LA: 'America/Chicago', MA: 'America/New_York',
  MD: 'America/New_York', ME: 'America/New_York', MI: 'America/Detroit', MN: 'America/Chicago', MO: 'America/Chicago',
  MS: 'America/Chicago', MT: 'America/Denver', NC: 'America/New_York', ND: 'America/Chicago', NE: 'America/Chicago',
  NH: 'America/New_York', NJ: 'America/New_York', NM: 'America/Denver', NV: 'America/Los_Angeles', NY: 'America/New_York',
  OH: 'America/New_York', OK: 'America/Chicago', OR: 'America/Los_Angeles', PA: 'America/New_York', RI: 'America/New_York',
  SC: 'America/New_York', SD: 'America/Chicago', TN: 'America/Chicago', TX: 'America/Chicago', UT: 'America/Denver',
  VA: 'America/New_York', VT: 'America/New_York', WA: 'America/Los_Angeles', WI: 'America/Chicago', WV: 'America/New_York',
  WY: 'America/Denver', PR: 'America/Puerto_Rico', VI: 'America/St_Thomas', GU: 'Pacific/Guam', AS: 'Pacific/Pago_Pago',
  MP: 'Pacific/Saipan', AA: 'America/New_York', AE: 'Europe/Berlin', AP: 'Pacific/Guam',
};

/** "Monday, Jan 1, 2024, 3 PM CST": the moment in the state's time zone (UTC for a state not listed). */
export function formatLocalTime(moment: Date, state: string | null): string {
  return new Intl.DateTimeFormat('en-US', {
    weekday: 'long',
    month: 'short',
    day: 'numeric',
    year: 'numeric',
    hour: 'numeric',
    minute: moment.getUTCMinutes() === 0 ? undefined : '2-digit',
    timeZone: (state && stateTimeZones[state]) ?? 'UTC',
    timeZoneName: 'short',
  }).format(moment);
}

/** The state's time zone (UTC for a state not listed). */
export const timeZoneOf = (state: string | null): string => (state && stateTimeZones[state]) ?? 'UTC';

/** "2026-11-26": the calendar date at the moment in the state's time zone. */
export function localDate(moment: Date, state: string | null): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: timeZoneOf(state), year: 'numeric', month: '2-digit', day: '2-digit' }).format(moment);
}

/**
 * The same as SQL, for a state column: the calendar date at the moment where the site is. The zones
 * are this file's constants, written as literals (a CASE of some sixty states).
 */
export function localDateSql(moment: Date, state: SQL): SQL {
  const zones = Object.entries(stateTimeZones).map(([code, zone]) => `when '${code}' then '${zone}'`);
  return sql`((${moment.toISOString()}::timestamptz) at time zone (case ${state} ${sql.raw(zones.join(' '))} else 'UTC' end))::date`;
}
