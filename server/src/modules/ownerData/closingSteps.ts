import { formatPhone } from '@petreg/contract';
import { and, eq, inArray, isNotNull, isNull, or, sql, type SQL } from 'drizzle-orm';
import type { AnyPgColumn } from 'drizzle-orm/pg-core';
import { imageFolders } from '../../adapters/storage/images.js';
import type { Transaction } from '../../db/client.js';
import {
  alertEmails,
  auditLog,
  backupContacts,
  emailChanges,
  foundReports,
  knownSignInAddresses,
  mailOutbox,
  payments,
  petAlerts,
  pets,
  phoneCodes,
  sitePets,
  textOutbox,
  users,
} from '../../db/schema.js';
import { removePet } from '../pets/removal.js';
import { closeTransfers } from '../pets/transferOwnerData.js';
import { voidResetLinks } from '../users/mailedLinks.js';

/** The account being closed, as the steps need it: read before anything is erased. */
export interface ClosingAccount {
  id: number;
  email: string;
  /**
   * What names the owner in words others were sent (the e-mail, the full name, the phone as stored,
   * as E.164 and as mails print it), lower-case: a copy of a mail or text holding one is erased.
   */
  needles: string[];
  /** Lower-case; the transfer e-mails name the owner by it alone. */
  firstName: string;
  /** The owner's phone, E.164, when there is one. */
  phone: string | null;
  petIds: number[];
  /** Files to delete once the erasure committed: a rollback must not leave rows naming missing files. */
  files: { folder: string; name: string }[];
}

/**
 * One part of closing an account, run in the closing transaction. A feature that keeps something
 * about an owner adds its step to `closingSteps`, beside its section of the export.
 */
export type ClosingStep = (tx: Transaction, account: ClosingAccount) => Promise<void>;

/** The address a closed account keeps: unique, of a domain that never receives mail (RFC 2606), and nobody's. */
export const closedAccountEmail = (userId: number) => `closed-account-${userId}@closed.invalid`;

export const ERASED = '[erased]';

/** Any of the needles inside the column (case-insensitive). */
export const mentions = (column: AnyPgColumn | SQL, needles: string[]): SQL =>
  or(...needles.map((n) => sql`strpos(lower(${column}), ${n}) > 0`)) ?? sql`false`;

export function needlesOf(user: { email: string; firstName: string; lastName: string; phoneNumber: string | null }, phone: string | null): string[] {
  const fullName = `${user.firstName} ${user.lastName}`.trim();
  const values = [user.email, fullName.includes(' ') ? fullName : '', user.phoneNumber ?? '', phone ?? '', phone ? formatPhone(phone) : ''];
  return [...new Set(values.filter((v) => v.length >= 5).map((v) => v.toLowerCase()))];
}

/** Pets leave every owner call, the public pages and both lookups (soft delete, chips retired, renewals stopped). */
const pets_: ClosingStep = async (tx, account) => {
  const rows = await tx.select({ id: pets.id, image: pets.image, deletedAt: pets.deletedAt }).from(pets).where(eq(pets.userId, account.id));
  for (const pet of rows) {
    if (!pet.deletedAt) await removePet(tx, pet.id, account.id);
    if (pet.image) account.files.push({ folder: imageFolders.pets, name: pet.image });
  }
  if (account.petIds.length === 0) return;
  // The name, species, breeds and chips stay, with no owner to reach: a record of the chip's history.
  await tx
    .update(pets)
    .set({ notes: null, image: null, verificationQuestion: null, incidentDescription: null, zipCode: null, missingDate: null, isActive: false, shareContactInfo: false })
    .where(and(inArray(pets.id, account.petIds), eq(pets.userId, account.id)));
  await tx.update(sitePets).set({ deletedAt: sql`now()`, deletedBy: account.id }).where(and(inArray(sitePets.petId, account.petIds), isNull(sitePets.deletedAt)));
};

/** Open alerts end and their unsent e-mails are dropped; every alert's words go. */
const alerts: ClosingStep = async (tx, account) => {
  if (account.petIds.length === 0) return;
  const mine = inArray(petAlerts.petId, account.petIds);
  await tx.update(petAlerts).set({ status: 'ended' }).where(and(mine, inArray(petAlerts.status, ['NEW', 'paid'])));
  await tx
    .update(alertEmails)
    .set({ status: 'canceled' })
    .where(and(eq(alertEmails.status, 'pending'), inArray(alertEmails.alertId, tx.select({ id: petAlerts.id }).from(petAlerts).where(mine))));
  await tx.update(petAlerts).set({ incidentDescription: ERASED, zipCode: '' }).where(mine);
};

/** What finders wrote to the owner, and their contact: theirs was given to reach this owner only. */
const found: ClosingStep = async (tx, account) => {
  const mine = eq(foundReports.ownerId, account.id);
  const photos = await tx.select({ photo: foundReports.photo }).from(foundReports).where(and(mine, isNotNull(foundReports.photo)));
  for (const { photo } of photos) account.files.push({ folder: imageFolders.foundReports, name: photo! });
  await tx
    .update(foundReports)
    .set({
      finderName: ERASED,
      finderPhone: null,
      finderEmail: null,
      message: ERASED,
      location: ERASED,
      photo: null,
      question: null,
      answer: null,
      // An opened report is escalated to nobody.
      openedAt: sql`coalesce(${foundReports.openedAt}, now())`,
    })
    .where(mine);
};

const contacts: ClosingStep = async (tx, account) => {
  await tx
    .update(backupContacts)
    .set({ name: ERASED, phoneNumber: '', deletedAt: sql`coalesce(${backupContacts.deletedAt}, now())`, deletedBy: account.id })
    .where(eq(backupContacts.userId, account.id));
};

/**
 * Mails to the owner (at the account's address, or one it asked to change to), and copies of mails to
 * others that name the owner: queued ones are dropped, all lose their words.
 */
const mails: ClosingStep = async (tx, account) => {
  const asked = await tx.select({ email: emailChanges.newEmail }).from(emailChanges).where(eq(emailChanges.userId, account.id));
  const addresses = [...new Set([account.email, ...asked.map((a) => a.email)].map((a) => a.toLowerCase()))];
  const toOwner = inArray(sql`lower(${mailOutbox.recipient})`, addresses);
  const about = or(toOwner, mentions(mailOutbox.subject, account.needles), mentions(mailOutbox.text, account.needles), mentions(mailOutbox.html, account.needles))!;
  await tx.update(mailOutbox).set({ status: 'canceled' }).where(and(about, eq(mailOutbox.status, 'pending')));
  await tx
    .update(mailOutbox)
    .set({ recipient: closedAccountEmail(account.id), subject: ERASED, text: ERASED, html: null, lastError: null })
    .where(and(about, toOwner));
  await tx.update(mailOutbox).set({ subject: ERASED, text: ERASED, html: null, lastError: null }).where(about);
};

/** Texts to the owner and those sent on the owner's behalf (to backup contacts, to finders). */
const texts: ClosingStep = async (tx, account) => {
  const about = or(eq(textOutbox.userId, account.id), account.phone ? eq(textOutbox.recipient, account.phone) : undefined, mentions(textOutbox.body, account.needles))!;
  await tx.update(textOutbox).set({ status: 'canceled' }).where(and(about, eq(textOutbox.status, 'pending')));
  await tx.update(textOutbox).set({ recipient: '', body: ERASED, lastError: null }).where(about);
};

/** Sign-in material: links, codes, the addresses signed in from; sessions end after the commit. */
const signIn: ClosingStep = async (tx, account) => {
  await voidResetLinks(tx, account.id);
  await tx.update(emailChanges).set({ newEmail: '', usedAt: sql`coalesce(${emailChanges.usedAt}, now())` }).where(eq(emailChanges.userId, account.id));
  await tx.update(phoneCodes).set({ phone: '', usedAt: sql`coalesce(${phoneCodes.usedAt}, now())` }).where(eq(phoneCodes.userId, account.id));
  await tx.delete(knownSignInAddresses).where(eq(knownSignInAddresses.userId, account.id));
};

/** Payments keep what the accounts need (amount, currency, date, plan, card's last 4, provider's references), not who paid. */
const paymentsStep: ClosingStep = async (tx, account) => {
  await tx.update(payments).set({ customerName: null, customerEmail: null }).where(eq(payments.userId, account.id));
};

/** Keys of audited records that hold personal details. */
const personalKeys = new Set([
  'email',
  'newEmail',
  'firstName',
  'lastName',
  'phoneNumber',
  'address1',
  'address2',
  'city',
  'zipcode',
  'zipCode',
  'photo',
  'image',
  'notes',
  'verificationQuestion',
  'incidentDescription',
  'passwordHash',
  'googleId',
  'facebookId',
]);

function redact(value: unknown, needles: string[]): unknown {
  if (typeof value === 'string') return needles.some((n) => value.toLowerCase().includes(n)) ? ERASED : value;
  if (Array.isArray(value)) return value.map((v) => redact(v, needles));
  if (value && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, personalKeys.has(k) && v !== null ? ERASED : redact(v, needles)]));
  }
  return value;
}

/** The audit log keeps who did what and when to the account and its pets, without the details. */
const audit: ClosingStep = async (tx, account) => {
  const rows = await tx
    .select()
    .from(auditLog)
    .where(
      or(
        and(eq(auditLog.entity, 'user'), eq(auditLog.entityId, String(account.id))),
        account.petIds.length ? and(eq(auditLog.entity, 'pet'), inArray(auditLog.entityId, account.petIds.map(String))) : undefined,
        mentions(sql`${auditLog.before}::text`, account.needles),
        mentions(sql`${auditLog.after}::text`, account.needles),
      ),
    );
  for (const row of rows) {
    await tx.update(auditLog).set({ before: redact(row.before, account.needles), after: redact(row.after, account.needles) }).where(eq(auditLog.id, row.id));
  }
};

/** Last: the account itself. Its address is free for a new sign-up at once. */
const account_: ClosingStep = async (tx, account) => {
  await tx
    .update(users)
    .set({
      email: closedAccountEmail(account.id),
      passwordHash: null,
      firstName: '',
      lastName: '',
      phoneNumber: null,
      phoneVerifiedAt: null,
      emailVerifiedAt: null,
      address1: null,
      address2: null,
      city: null,
      stateId: null,
      zipcode: null,
      photo: null,
      googleId: null,
      facebookId: null,
      settings: {},
      shortcuts: [],
      notifyByEmail: false,
      notifyBySms: false,
      // A protected record's reason may tell the owner's story; the flag goes with the account.
      recordProtectedAt: null,
      recordProtectedBy: null,
      recordProtectedReason: null,
      isActive: false,
      updatedAt: new Date(),
    })
    .where(eq(users.id, account.id));
};

/** In order: the account row goes last, the audit scrub after every step that writes audited rows. */
export const closingSteps: readonly ClosingStep[] = [pets_, alerts, found, closeTransfers, contacts, mails, texts, signIn, paymentsStep, audit, account_];
