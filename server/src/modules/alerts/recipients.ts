import { limits } from '@petreg/contract';
import { sql } from 'drizzle-orm';
import { queryRows, type Transaction } from '../../db/client.js';
import { alertEmails, emailUnsubscribes, sitePets, sites, zipCodes } from '../../db/schema.js';

const METERS_PER_MILE = 1609.344;

/**
 * Writes one alert e-mail row per recipient, in one statement: the active sites that take alerts
 * and have an e-mail within 50 miles of the last-seen ZIP's centre, and the pet's own vets with an
 * e-mail; one row per address (lower-case), none for an address that unsubscribed. The unique
 * (alert, kind, recipient) key makes a second run add nothing. Answers how many rows it wrote.
 */
export async function writeAlertRecipients(tx: Transaction, alert: { id: number; petId: number; zipCode: string }): Promise<number> {
  const meters = limits.alertRadiusMiles * METERS_PER_MILE;
  const centre = sql`ll_to_earth(${zipCodes.latitude}, ${zipCodes.longitude})`;
  const site = sql`ll_to_earth(${sites.latitude}, ${sites.longitude})`;
  const address = sql`lower(trim(${sites.email}))`;
  const [row] = await queryRows<{ written: number }>(
    tx,
    sql`
    with candidates as (
      select ${sites.id} as site_id, ${address} as recipient
        from ${zipCodes} join ${sites} on earth_box(${centre}, ${meters}) @> ${site} and earth_distance(${centre}, ${site}) <= ${meters}
        where ${zipCodes.zip} = ${alert.zipCode} and ${sites.isActive} and ${sites.receivesAlerts} and ${address} <> ''
      union all
      select ${sites.id}, ${address}
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
