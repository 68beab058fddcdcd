import { API_BASE, formatPlace, paths, reachOwnerPath } from '@petreg/contract';
import { and, asc, eq, inArray, isNull } from 'drizzle-orm';
import addressparser from 'nodemailer/lib/addressparser';
import type { MailMessage } from '../../adapters/mail/index.js';
import { imageUrl } from '../../adapters/storage/images.js';
import type { Config } from '../../config.js';
import type { Database } from '../../db/client.js';
import { alertEmails, breeds, chips, petAlerts, petBreeds, pets, shortLinks, species, users, zipCodes } from '../../db/schema.js';
import { replyAddressOf } from '../relay/address.js';
import { alertEmail, foundEmail, type AlertedPet } from './emails.js';
import { formatLocalTime } from './localTime.js';
import { preferencesToken } from './preferences.js';

// Alert e-mails as their recipients get them: what the worker sends and the mail log shows.

/** What an alert e-mail needs of the portal's settings. */
export interface AlertMailSettings {
  publicUrl: string;
  supportPhone: string;
  /** MAIL_FROM: its address takes unsubscribe requests by e-mail (the mailto of List-Unsubscribe). */
  mailFrom: string;
  /** The inbound mail domain: each alert e-mail's Reply-To is its own relay address there; null: no relay. */
  inboundMailDomain: string | null;
  /** Signs each recipient's preferences link (the portal's secret). */
  secret: string;
}

export const alertMailSettingsOf = (config: Pick<Config, 'publicUrl' | 'support' | 'mailFrom' | 'inboundMail'>, secret: string): AlertMailSettings => ({
  publicUrl: config.publicUrl,
  supportPhone: config.support.phone,
  mailFrom: config.mailFrom,
  inboundMailDomain: config.inboundMail?.domain ?? null,
  secret,
});

type AlertEmailRow = typeof alertEmails.$inferSelect;

/**
 * Writes an alert e-mail row as the message its recipient gets: the alert or the thank-you, with
 * the row's own pixel, its signed preferences link and one-click unsubscribe address (RFC 8058), a
 * mailto to MAIL_FROM, and, with an inbound mail domain, the row's own relay address as the alert's Reply-To.
 */
export function alertMessageWriter(settings: AlertMailSettings) {
  const replyAddress = addressparser(settings.mailFrom, { flatten: true })[0]?.address;
  const api = `${settings.publicUrl}${API_BASE}/email`;
  const host = new URL(settings.publicUrl).hostname;
  return (row: Pick<AlertEmailRow, 'id' | 'kind' | 'token' | 'replyToken' | 'recipient'>, alert: AlertedPet, now?: Date): MailMessage => {
    const unsubscribeUrl = `${api}/unsubscribe/${row.token}`;
    const preferencesUrl = `${api}/preferences/${preferencesToken(settings.secret, row)}`;
    const relay = settings.inboundMailDomain ? replyAddressOf(row.replyToken, settings.inboundMailDomain) : null;
    const content =
      row.kind === 'alert'
        ? alertEmail(alert, { unsubscribeUrl, preferencesUrl, pixelUrl: `${api}/open/${row.token}.gif`, supportPhone: settings.supportPhone, relayAddress: relay }, now)
        : foundEmail(alert, { unsubscribeUrl, preferencesUrl });
    const mailto = replyAddress ? `, <mailto:${replyAddress}?subject=unsubscribe%20${row.token}>` : '';
    return {
      to: row.recipient,
      messageId: `<${row.token}@${host}>`,
      ...content,
      headers: { 'List-Unsubscribe': `<${unsubscribeUrl}>${mailto}`, 'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click' },
    };
  };
}
export type AlertContext = AlertedPet & {
  status: string;
  /** The pet was removed by an administrator: its alert e-mails are no longer due. */
  petRemoved: boolean;
};

/** The pets of the alerts in a batch, read once each, as their e-mails describe them. */
export async function readAlerts(db: Database, alertIds: number[], publicUrl: string): Promise<Map<number, AlertContext>> {
  const rows = await db
    .select({
      alert: petAlerts,
      pet: pets,
      owner: { email: users.email, phone: users.phoneNumber, protectedAt: users.recordProtectedAt },
      species: species.name,
      zip: zipCodes,
      shortCode: shortLinks.code,
    })
    .from(petAlerts)
    .innerJoin(pets, eq(pets.id, petAlerts.petId))
    .innerJoin(users, eq(users.id, pets.userId))
    .leftJoin(species, eq(species.id, pets.speciesId))
    .leftJoin(zipCodes, eq(zipCodes.zip, petAlerts.zipCode))
    .leftJoin(shortLinks, eq(shortLinks.petId, pets.id))
    .where(inArray(petAlerts.id, alertIds));
  const breedRows = await db
    .select({ petId: petBreeds.petId, name: breeds.name })
    .from(petBreeds)
    .innerJoin(breeds, eq(breeds.id, petBreeds.breedId))
    .where(inArray(petBreeds.petId, rows.map((r) => r.pet.id)))
    .orderBy(asc(breeds.name));
  const chipRows = await db
    .select({ petId: chips.petId, chipId: chips.chipId })
    .from(chips)
    .where(and(inArray(chips.petId, rows.map((r) => r.pet.id)), isNull(chips.removedAt)))
    .orderBy(asc(chips.id));
  return new Map(
    rows.map(({ alert, pet, owner, species: speciesName, zip, shortCode }) => {
      const photo = imageUrl('pets', pet.image);
      const profile = shortCode ? `${paths.short}/${shortCode}` : `${paths.petProfiles}/${pet.publicId}`;
      return [
        alert.id,
        {
          status: alert.status,
          petRemoved: pet.deletedAt !== null,
          name: pet.name,
          species: speciesName,
          breeds: breedRows.filter((b) => b.petId === pet.id).map((b) => b.name),
          colour: pet.colour,
          sex: pet.sex,
          chips: chipRows.filter((c) => c.petId === pet.id).map((c) => c.chipId),
          dob: pet.dob,
          weightLbs: pet.approximateWeight === null ? null : Number(pet.approximateWeight),
          missingSince: formatLocalTime(alert.missingDate, zip?.state ?? null),
          place: zip ? formatPlace(zip) : alert.zipCode,
          incidentDescription: alert.incidentDescription,
          // The setting the public profile honours: without it, or while an administrator protects the
          // owner's record, nothing of the owner goes to strangers (only the relay form reaches them).
          sharedContact: pet.shareContactInfo && !owner.protectedAt ? { email: owner.email, phone: owner.phone } : null,
          photoUrl: photo && `${publicUrl}${photo}`,
          profileUrl: `${publicUrl}${profile}`,
          reachOwnerUrl: `${publicUrl}${reachOwnerPath({ pet: pet.publicId })}`,
        },
      ];
    }),
  );
}
