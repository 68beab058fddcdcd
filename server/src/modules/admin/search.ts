import {
  adminUserSearchPageSize,
  cardPaymentSearchLimit,
  messages,
  type adminChipSearchQuery,
  type AdminChipMatch,
  type adminUserSearchSchema,
  type AdminUserSearchPage,
  type cardPaymentSearchQuery,
  type CardTransactionRow,
} from '@petreg/contract';
import { desc, eq, sql, type SQL } from 'drizzle-orm';
import type { z } from 'zod';
import { queryRows, type Database, type Transaction } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { countedMatches, matchCount } from '../../db/matchCount.js';
import { hasTrigram, readByTrigramIndexes, type SearchedDatabase } from '../../db/searchPlans.js';
import { chips, nationalPhoneDigits, ownerFullName, payments, pets, plans, states, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';

export type AdminSearch = ReturnType<typeof createAdminSearch>;

/** Text made only of what people type around a phone number's digits. */
const phoneLike = /^[\d\s()+.-]+$/;
/** A complete e-mail address, not part of one. */
const wholeEmail = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;

/** What a search term matches: a condition on `users`, and for plain text one on `pets` too; whether the trigram indexes look it up. */
interface AccountMatch {
  owner: SQL;
  petName: SQL | null;
  byTrigrams: boolean;
}

/**
 * Each condition is written so its index serves it (migration admin_search): a phone typed any way is
 * compared by its last 10 digits, from the area code on (users_phone_digits_idx); an e-mail address as
 * a whole, or part of one with @; other text is part of an owner's name, an e-mail or a pet's name
 * (trigram indexes).
 */
function accountMatch(term: string): AccountMatch {
  const digits = term.replace(/\D/g, '');
  // At most 11 digits (a country code of 1 and ten): a longer run of digits, a chip number pasted
  // in, say, is not a phone number.
  if (phoneLike.test(term) && digits.length >= 3 && digits.length <= 11) {
    // No North American area code starts with 1: a leading 1 of a shorter number is the country code.
    const national = digits.length > 10 ? digits.slice(-10) : digits.replace(/^1/, '');
    return { owner: sql`${nationalPhoneDigits(users.phoneNumber)} like ${`${national}%`}`, petName: null, byTrigrams: false };
  }
  // A whole address is looked up as sign-in looks it up (users_email_lower_idx): trigrams common to
  // every address (@ex, .co) would make the trigram index read most of its entries.
  if (wholeEmail.test(term)) return { owner: sql`lower(${users.email}) = ${term.toLowerCase()}`, petName: null, byTrigrams: false };
  const pattern = containsPattern(term);
  if (term.includes('@')) return { owner: sql`${users.email} ilike ${pattern}`, petName: null, byTrigrams: hasTrigram.test(term) };
  return {
    owner: sql`(${ownerFullName(users.firstName, users.lastName)} ilike ${pattern} or ${users.email} ilike ${pattern})`,
    petName: sql`${pets.name} ilike ${pattern}`,
    byTrigrams: hasTrigram.test(term),
  };
}

/** Each matching owner's pets, read owner by owner through pets_user_idx, and no pet for an owner who has none. */
function everyPetOf(owners: SQL): SQL {
  // OFFSET 0 keeps the lateral subquery from being merged into a plain join: left to itself the
  // planner hash-joins a common name's owners with a scan of every pet.
  return sql`select o.id as user_id, p.id as pet_id from (${owners}) o left join lateral (select id from ${pets} where user_id = o.id offset 0) p on true`;
}

/**
 * One page of the user search: every pet of a matching owner, and each pet whose name matches, the
 * newest accounts first. A row of the first `reach` rows comes from one of the first `reach` matching
 * owners (each gives at least one row) or one of the first `reach` matching pets, so only those are
 * read: for part of a common name ("Ward" is in Howard and Edwards too: 17,000 owners in a million
 * pets) the newest owners are found by reading the accounts newest first until enough match. The
 * total is counted up to matchCountLimit, in the same statement.
 */
function userSearchStatement({ owner, petName }: AccountMatch, pageNumber: number): SQL {
  const offset = (pageNumber - 1) * adminUserSearchPageSize;
  const reach = offset + adminUserSearchPageSize;
  const ownerRows = everyPetOf(sql`select ${users.id} from ${users} where ${owner} order by ${users.id} desc limit ${reach}`);
  const hits = petName
    ? sql`${ownerRows} union select user_id, pet_id from (select ${pets.userId} as user_id, ${pets.id} as pet_id from ${pets} where ${petName}
        order by ${pets.userId} desc, ${pets.id} limit ${reach}) named`
    : ownerRows;
  // Counted without sorting or removing duplicates, so counting stops at the limit: a pet found by
  // its name counts only when its owner was not found already (one hashed list of those owners).
  const matchingOwners = sql`select ${users.id} from ${users} where ${owner}`;
  const counted = sql`select 1 from (${everyPetOf(matchingOwners)}) owned${
    petName ? sql` union all select 1 from ${pets} where ${petName} and ${pets.userId} not in (${matchingOwners})` : sql``
  }`;
  return sql`with hits as (${hits}),
    page as (
      select user_id, pet_id from hits
      order by user_id desc, pet_id nulls first
      limit ${adminUserSearchPageSize} offset ${offset}
    )
    select t.total, page.pet_id, u.id as user_id, u.first_name || ' ' || u.last_name as owner_name, u.email, u.phone_number,
      concat_ws(', ', nullif(concat_ws(' ', u.address1, u.address2), ''), u.city, nullif(concat_ws(' ', s.abbreviation, u.zipcode), '')) as address,
      p.name as pet_name, p.deleted_at is not null as pet_removed,
      (select c.chip_id from ${chips} c where c.pet_id = p.id order by c.removed_at is not null, c.created_at desc limit 1) as chip_id
    from (${matchCount(counted)}) t
    left join page on true
    left join ${users} u on u.id = page.user_id
    left join ${states} s on s.id = u.state_id
    left join ${pets} p on p.id = page.pet_id
    order by page.user_id desc, page.pet_id nulls first`;
}

/**
 * Runs `read` on the user search's statement, through the trigram indexes on the embedded database
 * when they look the term up (readByTrigramIndexes). The count reads matching owners until it has
 * enough, and the planner guesses 3% of owners match `ILIKE '%name%'` where 0.5% do: that puts reading
 * the accounts in turn until enough match within a few percent of going through the index, and which
 * one a name got changed from one seeded registry to the next. In a million pets a last name's p95 was
 * 102 to 251 ms (0.4 to 0.5 s at worst, 109,000 accounts read), and 49 to 63 ms through the index; a
 * part of a quarter of the addresses ("mail.example") goes the other way, 18 to 117 ms, as the index
 * lists every match first. On a server the planner's choice was the faster (last name 22 ms, that
 * part of an address 8.5).
 */
export function readUserSearch<T>(
  database: SearchedDatabase,
  { searchTerm, pageNumber }: z.output<typeof adminUserSearchSchema>,
  read: (reader: Database | Transaction, statement: SQL) => Promise<T>,
): Promise<T> {
  const match = accountMatch(searchTerm);
  const statement = userSearchStatement(match, pageNumber);
  return readByTrigramIndexes(database, match.byTrigrams, (reader) => read(reader, statement));
}

/** A page past the last match is one row with the total and no account. */
interface UserRowRecord {
  total: number;
  pet_id: number | null;
  user_id: number | null;
  owner_name: string;
  email: string;
  address: string;
  phone_number: string | null;
  pet_name: string | null;
  chip_id: string | null;
  pet_removed: boolean;
}

/** The administrators' three searches: a pet by chip, accounts by name, pet, phone or e-mail, card payments by last 4 digits. */
export function createAdminSearch(database: SearchedDatabase) {
  const { db } = database;

  return {
    /**
     * The pet a chip number leads to: the pet carrying it now; otherwise the last that carried it
     * (a removed pet, or a chip since replaced), so an administrator still finds the record.
     */
    async petByMicrochip({ chip }: z.output<typeof adminChipSearchQuery>): Promise<AdminChipMatch> {
      const [match] = await db
        .select({ id: chips.id, petId: chips.petId, chipId: chips.chipId, deletedAt: pets.deletedAt })
        .from(chips)
        .innerJoin(pets, eq(pets.id, chips.petId))
        .where(eq(chips.chipId, chip))
        .orderBy(sql`${chips.removedAt} is not null`, sql`${pets.deletedAt} is not null`, desc(chips.createdAt))
        .limit(1);
      if (!match) throw notFound(messages.chipSearchNoRecords);
      return { id: match.id, petId: match.petId, chipId: match.chipId, removed: match.deletedAt !== null };
    },

    /** POST Users/SearchUsersByAdmin: the newest accounts first, each owner's pets in the order they were added; removed pets marked. */
    async users({ searchTerm, pageNumber }: z.output<typeof adminUserSearchSchema>): Promise<AdminUserSearchPage> {
      const rows = await readUserSearch(database, { searchTerm, pageNumber }, (reader, statement) => queryRows<UserRowRecord>(reader, statement));
      return {
        rows: rows.flatMap((row) =>
          row.user_id === null
            ? []
            : [
                {
                  petId: row.pet_id,
                  userId: row.user_id,
                  ownerName: row.owner_name,
                  email: row.email,
                  address: row.address,
                  phoneNumber: row.phone_number,
                  petName: row.pet_name,
                  chipId: row.chip_id,
                  petRemoved: row.pet_removed,
                },
              ],
        ),
        ...countedMatches(rows[0]?.total ?? 0),
        pageNumber,
        pageSize: adminUserSearchPageSize,
      };
    },

    /** GET admin/stripe-transactions/?key=: card payments whose card ends in these 4 digits, the latest first. */
    async cardPayments({ key }: z.output<typeof cardPaymentSearchQuery>): Promise<CardTransactionRow[]> {
      const rows = await db
        .select({
          paymentIntentId: payments.providerPaymentId,
          last4: payments.cardLast4,
          created: payments.createdAt,
          customerName: payments.customerName,
          customerEmail: payments.customerEmail,
          ownerName: ownerFullName(users.firstName, users.lastName).mapWith(String),
          ownerEmail: users.email,
          amount: payments.amountCents,
          currency: payments.currency,
          status: payments.status,
          petId: pets.id,
          petName: pets.name,
          product: plans.name,
        })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
        .leftJoin(pets, eq(pets.id, payments.petId))
        .leftJoin(plans, eq(plans.id, payments.planId))
        .where(eq(payments.cardLast4, key))
        .orderBy(desc(payments.createdAt), desc(payments.id))
        .limit(cardPaymentSearchLimit);
      return rows.map((row) => ({
        paymentIntentId: row.paymentIntentId,
        last4: row.last4 ?? key,
        created: row.created.toISOString(),
        name: row.customerName ?? row.ownerName,
        email: row.customerEmail ?? row.ownerEmail,
        amount: row.amount,
        currency: row.currency,
        status: row.status,
        petId: row.petId,
        petName: row.petName,
        product: row.product,
      }));
    },
  };
}
