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
  return (await createShortLinks(tx, [petId])).get(petId)!;
}

/** Gives new pets their short links in one statement an attempt, inside the transaction that creates them. */
export async function createShortLinks(tx: Transaction, petIds: readonly number[]): Promise<Map<number, string>> {
  const codes = new Map<number, string>();
  let pending = [...petIds];
  for (let attempt = 0; attempt < ATTEMPTS && pending.length > 0; attempt++) {
    // A taken code is skipped, not raised: an error would abort the whole pet transaction.
    const rows = await tx
      .insert(shortLinks)
      .values(pending.map((petId) => ({ code: newShortCode(), petId })))
      .onConflictDoNothing({ target: shortLinks.code })
      .returning({ code: shortLinks.code, petId: shortLinks.petId });
    for (const row of rows) codes.set(row.petId, row.code);
    pending = pending.filter((petId) => !codes.has(petId));
  }
  if (pending.length > 0) throw new Error(`No free short link code after ${ATTEMPTS} attempts`);
  return codes;
}
