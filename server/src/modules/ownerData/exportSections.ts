import { normalisePhone } from '@petreg/contract';
import { and, asc, count, eq, gte, inArray, max, sql } from 'drizzle-orm';
import type { Database } from '../../db/client.js';
import {
  alertEmails,
  backupContacts,
  breeds,
  chips,
  chipTypes,
  emailChanges,
  foundReports,
  mailOutbox,
  payments,
  petAlerts,
  petBreeds,
  pets,
  plans,
  shortLinks,
  sitePets,
  sites,
  species,
  states,
  textOutbox,
  users,
} from '../../db/schema.js';
import { transfersExport } from '../pets/transferOwnerData.js';
import { hideLinkCodes } from '../users/mailedLinks.js';
import { hideTextCodes } from '../texts/outbox.js';

/** Whose data a section gathers: the account, with what most sections look up by. */
export interface ExportOwner {
  id: number;
  email: string;
  /** E.164, when the profile has a number. */
  phone: string | null;
  /** Every pet the account holds, removed ones too. */
  petIds: number[];
  /**
   * Since when the address is this account's: its sign-up or its last change of address. Mails to the
   * address before then were someone else's (an earlier holder's, or an offer to an address nobody had).
   */
  emailSince: Date;
}

/**
 * One part of the export, under its own key. A feature that keeps something about an owner adds its
 * section to `exportSections`; nothing else changes. A section holds the owner's own records and,
 * of other people, only what the owner gave or was sent (never a professional's address list).
 */
export interface ExportSection {
  key: string;
  build(db: Database, owner: ExportOwner): Promise<unknown>;
}

const profile: ExportSection = {
  key: 'profile',
  async build(db, owner) {
    const [row] = await db
      .select({ user: users, state: states.abbreviation })
      .from(users)
      .leftJoin(states, eq(states.id, users.stateId))
      .where(eq(users.id, owner.id));
    const u = row!.user;
    return {
      id: u.id,
      email: u.email,
      emailVerifiedAt: u.emailVerifiedAt,
      firstName: u.firstName,
      lastName: u.lastName,
      phoneNumber: u.phoneNumber,
      phoneVerifiedAt: u.phoneVerifiedAt,
      address1: u.address1,
      address2: u.address2,
      city: u.city,
      state: row!.state,
      zipcode: u.zipcode,
      photo: u.photo,
      signInWith: { password: u.passwordHash !== null, google: u.googleId !== null, facebook: u.facebookId !== null },
      notifications: { byEmail: u.notifyByEmail, bySms: u.notifyBySms, foundReportsByText: u.textFoundReports },
      settings: u.settings,
      createdAt: u.createdAt,
      updatedAt: u.updatedAt,
    };
  },
};

const petsSection: ExportSection = {
  key: 'pets',
  async build(db, owner) {
    if (owner.petIds.length === 0) return [];
    const [petRows, breedRows, chipRows, links] = await Promise.all([
      db
        .select({ pet: pets, species: species.name, plan: plans.name })
        .from(pets)
        .leftJoin(species, eq(species.id, pets.speciesId))
        .leftJoin(plans, eq(plans.id, pets.planId))
        .where(inArray(pets.id, owner.petIds))
        .orderBy(asc(pets.id)),
      db
        .select({ petId: petBreeds.petId, name: breeds.name })
        .from(petBreeds)
        .innerJoin(breeds, eq(breeds.id, petBreeds.breedId))
        .where(inArray(petBreeds.petId, owner.petIds)),
      db
        .select({ chip: chips, brand: chipTypes.name })
        .from(chips)
        .leftJoin(chipTypes, eq(chipTypes.id, chips.chipTypeId))
        .where(inArray(chips.petId, owner.petIds))
        .orderBy(asc(chips.id)),
      db.select().from(shortLinks).where(inArray(shortLinks.petId, owner.petIds)),
    ]);
    return petRows.map(({ pet, species: speciesName, plan }) => ({
      id: pet.id,
      publicId: pet.publicId,
      shortLink: links.find((l) => l.petId === pet.id)?.code ?? null,
      name: pet.name,
      species: speciesName,
      breeds: breedRows.filter((b) => b.petId === pet.id).map((b) => b.name),
      sex: pet.sex,
      dob: pet.dob,
      colour: pet.colour,
      approximateWeight: pet.approximateWeight,
      spayedNeutered: pet.spayedNeutered,
      lastRabiesVaccine: pet.lastRabiesVaccine,
      notes: pet.notes,
      image: pet.image,
      verificationQuestion: pet.verificationQuestion,
      shareContactInfo: pet.shareContactInfo,
      isActive: pet.isActive,
      plan,
      createdAt: pet.createdAt,
      removedAt: pet.deletedAt,
      chips: chipRows
        .filter((c) => c.chip.petId === pet.id)
        .map(({ chip, brand }) => ({
          chipId: chip.chipId,
          brand,
          isActive: chip.isActive,
          expirationDate: chip.expirationDate,
          createdAt: chip.createdAt,
          removedAt: chip.removedAt,
        })),
    }));
  },
};

const contacts: ExportSection = {
  key: 'backupContacts',
  async build(db, owner) {
    const rows = await db.select().from(backupContacts).where(eq(backupContacts.userId, owner.id)).orderBy(asc(backupContacts.id));
    return rows.map((c) => ({
      name: c.name,
      phoneNumber: c.phoneNumber,
      phoneConfirmedAt: c.phoneConfirmedAt,
      createdAt: c.createdAt,
      removedAt: c.deletedAt,
    }));
  },
};

const vets: ExportSection = {
  key: 'vets',
  async build(db, owner) {
    if (owner.petIds.length === 0) return [];
    // The practices the owner linked: what the directory shows of them publicly, and which pet.
    return db
      .select({
        petId: sitePets.petId,
        name: sites.name,
        kind: sites.practiceType,
        address: sites.address1,
        city: sites.city,
        state: sites.state,
        zipCode: sites.zipCode,
        phoneNumber: sites.phoneNumber,
        website: sites.url,
        linkedAt: sitePets.createdAt,
        unlinkedAt: sitePets.deletedAt,
      })
      .from(sitePets)
      .innerJoin(sites, eq(sites.id, sitePets.siteId))
      .where(inArray(sitePets.petId, owner.petIds))
      .orderBy(asc(sitePets.id));
  },
};

const paymentsSection: ExportSection = {
  key: 'payments',
  async build(db, owner) {
    return db
      .select({
        petId: payments.petId,
        plan: plans.name,
        amountCents: payments.amountCents,
        currency: payments.currency,
        status: payments.status,
        provider: payments.provider,
        providerPaymentId: payments.providerPaymentId,
        cardLast4: payments.cardLast4,
        coupon: payments.coupon,
        customerName: payments.customerName,
        customerEmail: payments.customerEmail,
        createdAt: payments.createdAt,
      })
      .from(payments)
      .leftJoin(plans, eq(plans.id, payments.planId))
      .where(eq(payments.userId, owner.id))
      .orderBy(asc(payments.id));
  },
};

const alerts: ExportSection = {
  key: 'alerts',
  async build(db, owner) {
    if (owner.petIds.length === 0) return [];
    const [rows, deliveries] = await Promise.all([
      db.select().from(petAlerts).where(inArray(petAlerts.petId, owner.petIds)).orderBy(asc(petAlerts.id)),
      // How many professionals an alert reached, never who they are.
      db
        .select({ alertId: alertEmails.alertId, status: alertEmails.status, opened: sql<number>`count(${alertEmails.openedAt})`.mapWith(Number), total: count() })
        .from(alertEmails)
        .innerJoin(petAlerts, eq(petAlerts.id, alertEmails.alertId))
        .where(and(inArray(petAlerts.petId, owner.petIds), eq(alertEmails.kind, 'alert')))
        .groupBy(alertEmails.alertId, alertEmails.status),
    ]);
    return rows.map((a) => {
      const mine = deliveries.filter((d) => d.alertId === a.id);
      return {
        petId: a.petId,
        status: a.status,
        missingDate: a.missingDate,
        zipCode: a.zipCode,
        incidentDescription: a.incidentDescription,
        createdAt: a.createdAt,
        sentAt: a.sentAt,
        foundAt: a.foundAt,
        recipientsCount: a.recipientsCount,
        emails: {
          ...Object.fromEntries(mine.map((d) => [d.status, d.total])),
          opened: mine.reduce((sum, d) => sum + d.opened, 0),
        },
      };
    });
  },
};

const found: ExportSection = {
  key: 'foundReports',
  async build(db, owner) {
    const rows = await db.select().from(foundReports).where(eq(foundReports.ownerId, owner.id)).orderBy(asc(foundReports.id));
    // The finder wrote to this owner (reports stay with the owner they were made to, whoever holds the pet now): their words and contact are the owner's to keep.
    return rows.map(({ backupContactsToldAt: _b, vetsToldAt: _v, ...report }) => report);
  },
};

const mails: ExportSection = {
  key: 'emails',
  async build(db, owner) {
    const rows = await db
      .select()
      .from(mailOutbox)
      // A second's slack: the sign-up's own mails may be stamped by the application's clock, a moment before the database's.
      .where(and(eq(sql`lower(${mailOutbox.recipient})`, owner.email.toLowerCase()), gte(mailOutbox.createdAt, new Date(owner.emailSince.getTime() - 1000))))
      .orderBy(asc(mailOutbox.id));
    // A link still waiting in the outbox carries a working code: the file must not.
    return rows.map((m) => ({
      kind: m.kind,
      subject: m.subject,
      text: hideLinkCodes(m.text),
      status: m.status,
      createdAt: m.createdAt,
      sentAt: m.sentAt,
    }));
  },
};

const texts: ExportSection = {
  key: 'texts',
  async build(db, owner) {
    if (!owner.phone) return [];
    const rows = await db
      .select()
      .from(textOutbox)
      .where(and(eq(textOutbox.recipient, owner.phone), eq(textOutbox.userId, owner.id)))
      .orderBy(asc(textOutbox.id));
    return rows.map((t) => ({ kind: t.kind, to: t.recipient, body: hideTextCodes(t.kind, t.body), status: t.status, createdAt: t.createdAt, sentAt: t.sentAt }));
  },
};

/** The export's parts, in the file's order. */
export const exportSections: readonly ExportSection[] = [profile, petsSection, contacts, vets, paymentsSection, alerts, found, transfersExport, mails, texts];

/** The account as the sections look it up; null when there is no such account. */
export async function exportOwner(db: Database, userId: number): Promise<ExportOwner | null> {
  const [user] = await db
    .select({ email: users.email, phone: users.phoneNumber, createdAt: users.createdAt })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) return null;
  const petRows = await db.select({ id: pets.id }).from(pets).where(eq(pets.userId, userId));
  // The change that gave the account its address: not a link that only proved it, nor one voided unused.
  const [changed] = await db
    .select({ at: max(emailChanges.tookAddressAt) })
    .from(emailChanges)
    .where(and(eq(emailChanges.userId, userId), eq(sql`lower(${emailChanges.newEmail})`, user.email.toLowerCase())));
  const emailSince = changed?.at && changed.at > user.createdAt ? changed.at : user.createdAt;
  return { id: userId, email: user.email, phone: user.phone && normalisePhone(user.phone), petIds: petRows.map((p) => p.id), emailSince };
}
