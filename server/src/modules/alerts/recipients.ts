import { limits } from '@petreg/contract';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Transaction } from '../../db/client.js';
import { alertDailyCounts, alertEmails, alertPreferences, alertRecipientAddresses, emailUnsubscribes, pets, sitePets, sites } from '../../db/schema.js';
import { METERS_PER_MILE, sitesWithin } from '../../geography.js';
import { localDateSql } from './localTime.js';

type Centre = { latitude: number; longitude: number } | null;

/**
 * Whom a pet's alert e-mails, as (site_id, recipient, day, daily_cap) rows: the active sites that
 * take alerts and have an e-mail within 50 miles of the last-seen ZIP's centre, and the pet's own
 * vets that take alerts and have an e-mail within limits.ownVetReachMiles of it (none without a
 * centre); one row per address (lower-case), none for an address that unsubscribed. A site with
 * alerts off, or switched off, is never written, linked or not.
 *
 * An address's preferences (alertPreferences) narrow it further, for its own vets' alerts too: the
 * pet's species among those it wants, a site of it within its radius, and not paused on the site's
 * day. `day` is that day (where the site is) and `daily_cap` its cap, which writeAlertRecipients counts.
 */
function alertRecipients(petId: number, centre: Centre, now: Date): SQL {
  if (!centre) return sql`select null::integer as site_id, null::text as recipient, null::date as day, null::integer as daily_cap where false`;
  const address = sql`lower(trim(${sites.email}))`;
  const nearby = sitesWithin(centre, limits.alertRadiusMiles, { receivesAlerts: true });
  const ownVetsInReach = sitesWithin(centre, limits.ownVetReachMiles, { receivesAlerts: true });
  const columns = sql`${sites.id} as site_id, ${address} as recipient, ${nearby.distance} as meters, ${localDateSql(now, sql`${sites.state}`)} as day`;
  const petSpecies = sql`(select ${pets.speciesId} from ${pets} where ${pets.id} = ${petId})`;
  return sql`
    select distinct on (recipient) site_id, recipient, day, ${alertPreferences.dailyCap} as daily_cap
    from (
      select ${columns} from ${sites}
        where ${nearby.where} and ${address} <> ''
      union all
      select ${columns}
        from ${sitePets} join ${sites} on ${sites.id} = ${sitePets.siteId}
        where ${sitePets.petId} = ${petId} and ${sitePets.deletedAt} is null and ${ownVetsInReach.where} and ${address} <> ''
    ) candidates
    left join ${alertPreferences} on ${alertPreferences.email} = candidates.recipient
    where not exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = candidates.recipient)
      and (${alertPreferences.email} is null or (
        (${alertPreferences.speciesIds} is null or ${petSpecies} = any(${alertPreferences.speciesIds}))
        and candidates.meters <= ${alertPreferences.radiusMiles} * ${METERS_PER_MILE}::double precision
        and (${alertPreferences.pausedUntil} is null or ${alertPreferences.pausedUntil} <= candidates.day)
      ))
    order by recipient, site_id`;
}

/** How many professionals an alert about the pet, last seen around `centre`, would reach now (a capped address while under its cap). */
export async function countAlertRecipients(db: Database, petId: number, centre: Centre, now: Date): Promise<number> {
  const [row] = await queryRows<{ reached: number }>(
    db,
    sql`select count(*)::integer as reached from (${alertRecipients(petId, centre, now)}) recipients
      where daily_cap is null or coalesce((select ${alertDailyCounts.sent} from ${alertDailyCounts}
        where ${alertDailyCounts.email} = recipients.recipient and ${alertDailyCounts.day} = recipients.day), 0) < daily_cap`,
  );
  return row!.reached;
}

/**
 * Writes one alert e-mail row per recipient (alertRecipients), in one statement. A capped address
 * is written only when its count of the day goes up under the cap: the upsert locks the day's count,
 * so alerts fanned out at once (two workers, two owners) wait for each other and never pass the cap
 * together. The unique (alert, kind, recipient) key makes a second run add nothing, and count
 * nothing. Each address written is kept in alertRecipientAddresses (the thank-you notes go to addresses
 * an alert row already has). Answers how many rows it wrote.
 */
export async function writeAlertRecipients(tx: Transaction, alert: { id: number; petId: number }, centre: Centre, now: Date): Promise<number> {
  const [row] = await queryRows<{ written: number }>(
    tx,
    sql`
    with chosen as (${alertRecipients(alert.petId, centre, now)}),
    counted as (
      insert into ${alertDailyCounts} (email, day, sent)
      select recipient, day, 1 from chosen
        where daily_cap is not null
          -- A second run of the fan-out writes nothing again: it must not count again either.
          and not exists (select 1 from ${alertEmails} e where e.alert_id = ${alert.id}::integer and e.kind = 'alert' and e.recipient = chosen.recipient)
        order by recipient
      on conflict (email, day) do update set sent = ${alertDailyCounts.sent} + 1
        where ${alertDailyCounts.sent} < coalesce((select ${alertPreferences.dailyCap} from ${alertPreferences} where ${alertPreferences.email} = excluded.email), 2147483647)
      returning email
    ),
    written as (
      insert into ${alertEmails} (alert_id, kind, site_id, recipient)
      select ${alert.id}::integer, 'alert', site_id, recipient from chosen
        where daily_cap is null or recipient in (select email from counted)
      on conflict do nothing
      returning recipient
    ),
    addressed as (
      -- In address order, as the daily counts: two fan-outs adding the same new addresses wait for each other, never deadlock.
      insert into ${alertRecipientAddresses} (address)
      select recipient from written order by recipient
      on conflict do nothing
    )
    select count(*)::integer as written from written`,
  );
  return row!.written;
}
