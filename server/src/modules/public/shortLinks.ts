import { randomInt } from 'node:crypto';
import type { Transaction } from '../../db/client.js';
import { shortLinks } from '../../db/schema.js';

/**
 * Short link codes: printed on collar tags and read by phones, sometimes typed. Lower-case letters
 * and digits without look-alikes (i, l, o, 0, 1), so a typed code needs no case or glyph guessing.
 * 31^8 ≈ 8.5e11 codes keep guessing a live one hopeless under the per-IP rate limit.
 */
const ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';
const LENGTH = 8;
const ATTEMPTS = 5;

export const isShortCode = (code: string) => code.length === LENGTH && [...code].every((c) => ALPHABET.includes(c));

function newShortCode(): string {
  return Array.from({ length: LENGTH }, () => ALPHABET[randomInt(ALPHABET.length)]).join('');
}

/** Gives a new pet its short link, inside the transaction that creates the pet. */
export async function createShortLink(tx: Transaction, petId: number): Promise<string> {
  for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
    // A taken code is skipped, not raised: an error would abort the whole pet transaction.
    const [row] = await tx
      .insert(shortLinks)
      .values({ code: newShortCode(), petId })
      .onConflictDoNothing({ target: shortLinks.code })
      .returning({ code: shortLinks.code });
    if (row) return row.code;
  }
  throw new Error(`No free short link code after ${ATTEMPTS} attempts`);
}
