import { limits } from '@petreg/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type Transaction } from '../../db/client.js';
import { alertEmails, emailUnsubscribes, sitePets, sites } from '../../db/schema.js';
import { sitesWithin } from '../../geography.js';

/**
 * Writes one alert e-mail row per recipient, in one statement: the active sites that take alerts
 * and have an e-mail within 50 miles of the last-seen ZIP's centre (none without one), and the pet's
 * own vets with an e-mail; one row per address (lower-case), none for an address that unsubscribed. The unique
 * (alert, kind, recipient) key makes a second run add nothing. Answers how many rows it wrote.
 */
export async function writeAlertRecipients(
  tx: Transaction,
  alert: { id: number; petId: number },
  centre: { latitude: number; longitude: number } | null,
): Promise<number> {
  const address = sql`lower(trim(${sites.email}))`;
  const nearby = centre
    ? sql`select ${sites.id} as site_id, ${address} as recipient from ${sites}
        where ${sitesWithin(centre, limits.alertRadiusMiles, { receivesAlerts: true }).where} and ${address} <> ''
      union all`
    : sql``;
  const [row] = await queryRows<{ written: number }>(
    tx,
    sql`
    with candidates as (
      ${nearby}
      select ${sites.id} as site_id, ${address} as recipient
        from ${sitePets} join ${sites} on ${sites.id} = ${sitePets.siteId}
        where ${sitePets.petId} = ${alert.petId} and ${sitePets.deletedAt} is null and ${sites.isActive} and ${address} <> ''
    ),
    written as (
      insert into ${alertEmails} (alert_id, kind, site_id, recipient)
      select distinct on (recipient) ${alert.id}::integer, 'alert', site_id, recipient
        from candidates
        where not exists (select 1 from ${emailUnsubscribes} where ${emailUnsubscribes.email} = candidates.recipient)
        order by recipient, site_id
      on conflict do nothing
      returning 1
    )
    select count(*)::integer as written from written`,
  );
  return row!.written;
}
