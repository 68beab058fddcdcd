import { matchCountLimit, type CountedMatches } from '@petreg/contract';
import { sql, type SQL } from 'drizzle-orm';

/**
 * The number of rows `matches` gives, counting one past matchCountLimit at most (as `total`): no
 * sorting, and the scan stops there.
 */
export const matchCount = (matches: SQL): SQL => sql`select count(*)::int as total from (${matches} limit ${matchCountLimit + 1}) counted`;

/** A count from matchCount, as the lists answer it. */
export const countedMatches = (counted: number): CountedMatches => ({
  total: Math.min(counted, matchCountLimit),
  totalCapped: counted > matchCountLimit,
});
