import { normalisePhone, textMaxLength, type TextKind } from '@petreg/contract';
import type { Database, Transaction } from '../../db/client.js';
import { textOutbox } from '../../db/schema.js';
import { hideLinkCodes } from '../users/mailedLinks.js';

export interface QueuedText {
  /** A phone number as stored; it is texted in E.164. */
  to: string;
  kind: TextKind;
  body: string;
  /** The account the text is for or about, when there is one. */
  userId?: number | null;
}

/**
 * Queues texts for the worker, in the caller's transaction when there is one (so a text goes out
 * only if what it tells happened). A number that is not a phone number is left out.
 */
export async function queueTexts(db: Database | Transaction, texts: QueuedText[]): Promise<number> {
  const rows = texts.flatMap((text) => {
    const recipient = normalisePhone(text.to);
    return recipient ? [{ recipient, kind: text.kind, body: text.body.slice(0, textMaxLength), userId: text.userId ?? null }] : [];
  });
  if (rows.length) await db.insert(textOutbox).values(rows);
  return rows.length;
}

/**
 * A text with its codes hidden: a phone code's digits, and the codes of its links. What the mail
 * log shows, and all the outbox keeps of a text once sent, so neither holds a working code.
 */
export function hideTextCodes(kind: TextKind, body: string): string {
  const linksHidden = hideLinkCodes(body);
  return kind === 'phone-code' ? linksHidden.replace(/\b\d{6}\b/g, '[hidden]') : linksHidden;
}
