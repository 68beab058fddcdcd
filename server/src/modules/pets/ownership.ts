import { messages } from '@petreg/contract';
import { and, eq, isNull } from 'drizzle-orm';
import type { Database, Transaction } from '../../db/client.js';
import { pets } from '../../db/schema.js';
import { forbidden, notFound } from '../../errors.js';
import { mayActFor, type Session } from '../../plugins/auth.js';

/** The pet, when it exists and the session may act on it; 404 or 403 otherwise. */
export async function findOwnedPet(db: Database | Transaction, session: Session, petId: number) {
  const [pet] = await db.select().from(pets).where(and(eq(pets.id, petId), isNull(pets.deletedAt)));
  if (!pet) throw notFound(messages.notFound);
  if (!mayActFor(session, pet.userId)) throw forbidden(messages.forbidden);
  return pet;
}
