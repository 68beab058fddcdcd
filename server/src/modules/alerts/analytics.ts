import { formatPlace, limits, messages, type AlertStatus, type EmailStats, type PetAlert } from '@petreg/contract';
import { and, desc, eq, sql } from 'drizzle-orm';
import { alertEmails, petAlerts, pets, zipCodes } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import { mayActFor, type Session } from '../../plugins/auth.js';
import { findOwnedPet } from '../pets/ownership.js';
import type { AlertDeps } from './shared.js';

const DAY_MS = 86_400_000;
const iso = (value: Date | null) => (value ? value.toISOString() : null);

/** What the owner sees of an alert: the pet's current alert and its e-mail delivery. */
export function createAlertAnalytics({ db }: AlertDeps) {
  return {
    /** GET petalert/alerts/bypet/{petId}: the pet's latest alert (at most one is open). */
    async currentAlert(session: Session, petId: number): Promise<PetAlert> {
      const pet = await findOwnedPet(db, session, petId);
      const [row] = await db
        .select({ alert: petAlerts, zip: zipCodes })
        .from(petAlerts)
        .leftJoin(zipCodes, eq(zipCodes.zip, petAlerts.zipCode))
        .where(eq(petAlerts.petId, petId))
        .orderBy(desc(petAlerts.id))
        .limit(1);
      if (!row) throw notFound(messages.noAlertsFound);
      const { alert, zip } = row;
      return {
        id: alert.id,
        petId: alert.petId,
        name: pet.name,
        status: alert.status as AlertStatus,
        missingDate: alert.missingDate.toISOString(),
        zipCode: alert.zipCode,
        place: zip ? formatPlace(zip) : alert.zipCode,
        incidentDescription: alert.incidentDescription,
        sentAt: iso(alert.sentAt),
        foundDate: iso(alert.foundAt),
        recipientsCount: alert.recipientsCount,
      };
    },

    /** GET email/{alertId}/getEmailStats: the alert e-mails' delivery over the 30 days after sending. */
    async emailStats(session: Session, alertId: number): Promise<EmailStats> {
      const [alert] = await db
        .select({ sentAt: petAlerts.sentAt, ownerId: pets.userId })
        .from(petAlerts)
        .innerJoin(pets, eq(pets.id, petAlerts.petId))
        .where(eq(petAlerts.id, alertId));
      if (!alert) throw notFound(messages.noAlertsFound);
      if (!mayActFor(session, alert.ownerId)) throw forbidden(messages.forbidden);
      if (!alert.sentAt) return { counted: 0, delivered: 0, opened: 0, bounced: 0, automaticOpens: 0 };
      const until = new Date(alert.sentAt.getTime() + limits.emailStatsDays * DAY_MS);
      const within = (column: typeof alertEmails.deliveredAt) => sql<number>`count(*) filter (where ${column} <= ${until})::integer`;
      const [stats] = await db
        .select({
          counted: sql<number>`count(*)::integer`,
          delivered: within(alertEmails.deliveredAt),
          opened: within(alertEmails.openedAt),
          bounced: sql<number>`count(*) filter (where ${alertEmails.status} = 'bounced')::integer`,
          automaticOpens: within(alertEmails.automaticOpenAt),
        })
        .from(alertEmails)
        .where(and(eq(alertEmails.alertId, alertId), eq(alertEmails.kind, 'alert')));
      return stats!;
    },
  };
}
