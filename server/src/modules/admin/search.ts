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
import { queryRows, type Database } from '../../db/client.js';
import { containsPattern } from '../../db/like.js';
import { chips, nationalPhoneDigits, ownerFullName, payments, pets, states, users } from '../../db/schema.js';
import { notFound } from '../../errors.js';

export type AdminSearch = ReturnType<typeof createAdminSearch>;

/** Text made only of what people type around a phone number's digits. */
const phoneLike = /^[\d\s()+.-]+$/;
/** A complete e-mail address, not part of one. */
const wholeEmail = /^[^@\s]+@[^@\s]+\.[a-z]{2,}$/i;

/**
 * The (owner, pet) pairs a search term finds, written so each part is served by its index
 * (migration admin_search): a phone typed any way is compared by its last 10 digits, from the area
 * code on (users_phone_digits_idx); an e-mail address as a whole, or part of one with @; other text is part of an
 * owner's name, an e-mail or a pet's name (trigram indexes). Every pet of a matching owner is listed,
 * with no pet for an owner who has none; and a pet whose name matches.
 */
function searchHits(term: string): SQL {
  // Each owner's pets read through pets_user_idx, owner by owner: left to itself the planner
  // hash-joins a common name's owners with a scan of every pet (0.3 s in 200,000 pets on PGlite).
  // OFFSET 0 keeps the lateral subquery from being merged into a plain join.
  const everyPetOf = (owners: SQL) =>
    sql`select o.id as user_id, p.id as pet_id from (${owners}) o left join lateral (select id from ${pets} where user_id = o.id offset 0) p on true`;
  const digits = term.replace(/\D/g, '');
  // At most 11 digits (a country code of 1 and ten): a longer run of digits, a chip number pasted
  // in, say, is not a phone number.
  if (phoneLike.test(term) && digits.length >= 3 && digits.length <= 11) {
    // No North American area code starts with 1: a leading 1 of a shorter number is the country code.
    const national = digits.length > 10 ? digits.slice(-10) : digits.replace(/^1/, '');
    return everyPetOf(sql`select ${users.id} from ${users} where ${nationalPhoneDigits(users.phoneNumber)} like ${`${national}%`}`);
  }
  // A whole address is looked up as sign-in looks it up (users_email_lower_idx): trigrams common to
  // every address (@ex, .co) would make the trigram index read most of its entries.
  if (wholeEmail.test(term)) return everyPetOf(sql`select ${users.id} from ${users} where lower(${users.email}) = ${term.toLowerCase()}`);
  const pattern = containsPattern(term);
  if (term.includes('@')) return everyPetOf(sql`select ${users.id} from ${users} where ${users.email} ilike ${pattern}`);
  return sql`${everyPetOf(
    sql`select ${users.id} from ${users} where ${ownerFullName(users.firstName, users.lastName)} ilike ${pattern} or ${users.email} ilike ${pattern}`,
  )}
    union select ${pets.userId}, ${pets.id} from ${pets} where ${pets.name} ilike ${pattern}`;
}

/**
 * One page of the user search. The page is cut from the matches by account and pet id alone (the
 * newest accounts first), so a common name (thousands of matches) costs a sort of ids; owners' and
 * pets' details are read for the page's rows only.
 */
export function userSearchStatement({ searchTerm, pageNumber }: z.output<typeof adminUserSearchSchema>): SQL {
  return sql`with hits as (${searchHits(searchTerm)}),
    page as (
      select user_id, pet_id, count(*) over () as total from hits
      order by user_id desc, pet_id nulls first
      limit ${adminUserSearchPageSize} offset ${(pageNumber - 1) * adminUserSearchPageSize}
    )
    select page.total::int as total, page.pet_id, u.id as user_id, u.first_name || ' ' || u.last_name as owner_name, u.email, u.phone_number,
      concat_ws(', ', nullif(concat_ws(' ', u.address1, u.address2), ''), u.city, nullif(concat_ws(' ', s.abbreviation, u.zipcode), '')) as address,
      p.name as pet_name, p.deleted_at is not null as pet_removed,
      (select c.chip_id from ${chips} c where c.pet_id = p.id order by c.removed_at is not null, c.created_at desc limit 1) as chip_id
    from page
    join ${users} u on u.id = page.user_id
    left join ${states} s on s.id = u.state_id
    left join ${pets} p on p.id = page.pet_id
    order by page.user_id desc, page.pet_id nulls first`;
}

interface UserRowRecord {
  total: number;
  pet_id: number | null;
  user_id: number;
  owner_name: string;
  email: string;
  address: string;
  phone_number: string | null;
  pet_name: string | null;
  chip_id: string | null;
  pet_removed: boolean;
}

/** The administrators' three searches: a pet by chip, accounts by name, pet, phone or e-mail, card payments by last 4 digits. */
export function createAdminSearch(deps: { db: Database }) {
  const { db } = deps;

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
      const rows = await queryRows<UserRowRecord>(db, userSearchStatement({ searchTerm, pageNumber }));
      return {
        rows: rows.map((row) => ({
          petId: row.pet_id,
          userId: row.user_id,
          ownerName: row.owner_name,
          email: row.email,
          address: row.address,
          phoneNumber: row.phone_number,
          petName: row.pet_name,
          chipId: row.chip_id,
          petRemoved: row.pet_removed,
        })),
        total: rows[0]?.total ?? 0,
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
        })
        .from(payments)
        .innerJoin(users, eq(users.id, payments.userId))
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
      }));
    },
  };
}
