import { adminPetRecentMails, adminPetRecentPayments, formatPlace, messages, type AdminPetSupport } from '@petreg/contract';
import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import { literalPattern } from '../../db/like.js';
import { backupContacts, mailOutbox, payments, petAlerts, pets, plans, sitePets, sites, users, zipCodes } from '../../db/schema.js';
import { notFound } from '../../errors.js';
import { liveLink } from '../sites/vets.js';

export type PetSupportView = ReturnType<typeof createPetSupportView>;

/**
 * GET admin/pet-support/{petId}: what a support agent reads beside the pet's and the owner's cards
 * while a finder or the owner is on the phone. Read-only; a removed pet answers too (its record stays).
 */
export function createPetSupportView({ db }: { db: Database }) {
  return {
    async forPet(petId: number): Promise<AdminPetSupport> {
      const [pet] = await db
        .select({ id: pets.id, userId: pets.userId, ownerEmail: users.email })
        .from(pets)
        .innerJoin(users, eq(users.id, pets.userId))
        .where(eq(pets.id, petId));
      if (!pet) throw notFound(messages.notFound);

      const [alerts, contacts, vets, paid, mails] = await Promise.all([
        db
          .select({ alert: petAlerts, zip: zipCodes })
          .from(petAlerts)
          .leftJoin(zipCodes, eq(zipCodes.zip, petAlerts.zipCode))
          .where(and(eq(petAlerts.petId, pet.id), inArray(petAlerts.status, ['NEW', 'paid']))),
        db
          .select({
            id: backupContacts.id,
            name: backupContacts.name,
            phoneNumber: backupContacts.phoneNumber,
            phoneConfirmed: sql<boolean>`${backupContacts.phoneConfirmedAt} is not null`,
          })
          .from(backupContacts)
          .where(and(eq(backupContacts.userId, pet.userId), isNull(backupContacts.deletedAt)))
          .orderBy(asc(backupContacts.id)),
        db
          .select({ site: sites })
          .from(sitePets)
          .innerJoin(sites, eq(sites.id, sitePets.siteId))
          .where(and(eq(sitePets.petId, pet.id), liveLink))
          .orderBy(asc(sitePets.id)),
        db
          .select({ payment: payments, planName: plans.name, payerEmail: users.email })
          .from(payments)
          .innerJoin(users, eq(users.id, payments.userId))
          .leftJoin(plans, eq(plans.id, payments.planId))
          .where(eq(payments.petId, pet.id))
          .orderBy(desc(payments.createdAt), desc(payments.id))
          .limit(adminPetRecentPayments),
        // As the mail log matches an address (its trigram index), in any case.
        db
          .select({ id: mailOutbox.id, subject: mailOutbox.subject, kind: mailOutbox.kind, status: mailOutbox.status, createdAt: mailOutbox.createdAt })
          .from(mailOutbox)
          .where(sql`${mailOutbox.recipient} ilike ${literalPattern(pet.ownerEmail)}`)
          .orderBy(desc(mailOutbox.createdAt), desc(mailOutbox.id))
          .limit(adminPetRecentMails),
      ]);

      // At most one alert is open at a time (pet_alerts_open_idx).
      const open = alerts[0];
      return {
        lost: open
          ? {
              status: open.alert.status as 'NEW' | 'paid',
              missingDate: open.alert.missingDate.toISOString(),
              zipCode: open.alert.zipCode,
              place: open.zip ? formatPlace(open.zip) : null,
              incidentDescription: open.alert.incidentDescription,
              sentAt: open.alert.sentAt?.toISOString() ?? null,
              recipientsCount: open.alert.recipientsCount,
            }
          : null,
        backupContacts: contacts,
        vets: vets.map(({ site }) => ({
          id: site.id,
          name: site.name,
          phoneNumber: site.phoneNumber,
          place: [site.address1, formatPlace({ city: site.city, state: site.state, zip: site.zipCode })].filter(Boolean).join(', '),
          isActive: site.isActive,
        })),
        payments: paid.map(({ payment, planName, payerEmail }) => ({
          id: payment.id,
          createdAt: payment.createdAt.toISOString(),
          planName,
          amount: payment.amountCents,
          currency: payment.currency,
          status: payment.status,
          cardLast4: payment.cardLast4,
          payerEmail,
        })),
        mails: mails.map((mail) => ({ ...mail, status: mail.status as AdminPetSupport['mails'][number]['status'], createdAt: mail.createdAt.toISOString() })),
      };
    },
  };
}
