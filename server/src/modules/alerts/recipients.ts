import { limits } from '@petreg/contract';
import { sql, type SQL } from 'drizzle-orm';
import { queryRows, type Database, type Transaction } from '../../db/client.js';
import { alertEmails, emailUnsubscribes, sitePets, sites } from '../../db/schema.js';
import { sitesWithin } from '../../geography.js';

type Centre = { latitude: number; longitude: number } | null;

/**
 * Whom a pet's alert e-mails, as (site_id, recipient) rows: the active sites that take alerts and
 * have an e-mail within 50 miles of the last-seen ZIP's centre, and the pet's own vets that take
 * alerts and have an e-mail within limits.ownVetReachMiles of it (none without a centre); one row
 * per address (lower-case), none for an address that unsubscribed. A site with alerts off, or
 * switched off, is never written, linked or not.
 */
function alertRecipients(petId: number, centre: Centre): SQL {
  if (!centre) return sql`select null::integer as site_id, null::text as recipient where false`;
  const address = sql`lower(trim(${sites.email}))`;
  const nearby = sitesWithin(centre, limits.alertRadiusMiles, { receivesAlerts: true }).where;
  const ownVetsInReach = sitesWithin(centre, limits.ownVetReachMiles, { receivesAlerts: true }).where;
  return sql`
    select distinct on (recipient) site_id, recipient
    from (
      select ${sites.id} as site_id, ${address} as recipient from ${sites}
        where ${nearby} and ${address} <> ''
      union all
      select ${sites.id} as site_id, ${address} as recipient
        from ${sitePets} join ${sites} on ${sites.id} = ${sitePets.siteId}
        where ${sitePets.petId} = ${petId} and ${sitePets.deletedAt} is null and ${ownVetsInReach} and ${address} <> ''
    ) candidates
    where not exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = candidates.recipient)
    order by recipient, site_id`;
}

/** How many professionals an alert about the pet, last seen around `centre`, would reach now. */
export async function countAlertRecipients(db: Database, petId: number, centre: Centre): Promise<number> {
  const [row] = await queryRows<{ reached: number }>(db, sql`select count(*)::integer as reached from (${alertRecipients(petId, centre)}) recipients`);
  return row!.reached;
}

/**
 * Writes one alert e-mail row per recipient (alertRecipients), in one statement. The unique
 * (alert, kind, recipient) key makes a second run add nothing. Answers how many rows it wrote.
 */
export async function writeAlertRecipients(tx: Transaction, alert: { id: number; petId: number }, centre: Centre): Promise<number> {
  const [row] = await queryRows<{ written: number }>(
    tx,
    sql`
    with written as (
      insert into ${alertEmails} (alert_id, kind, site_id, recipient)
      select ${alert.id}::integer, 'alert', site_id, recipient from (${alertRecipients(alert.petId, centre)}) recipients
      on conflict do nothing
      returning 1
    )
    select count(*)::integer as written from written`,
  );
  return row!.written;
}
