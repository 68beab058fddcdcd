import { messages, normalisePhone } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import type { FileStorage } from '../../adapters/storage/index.js';
import { imageFolders } from '../../adapters/storage/images.js';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { pets, users } from '../../db/schema.js';
import { badRequest, forbidden, notFound } from '../../errors.js';
import { isAdministrator, type Session, type SessionService } from '../../plugins/auth.js';
import type { PaymentService } from '../payments/service.js';
import { createPasswordCheck } from '../users/signIn.js';
import { closingSteps, needlesOf, type ClosingAccount } from './closingSteps.js';
import { deleteDiscardedFiles, discardFiles } from './discardedFiles.js';

/**
 * POST Users/close-account: the owner's password, then every personal detail erased in one
 * transaction (closingSteps), the sessions ended and the photos deleted (noted in that transaction, so
 * one the storage cannot delete at once is deleted by the worker later). Rows stay, emptied: what
 * others did (payments, alerts sent to professionals) keeps its history.
 */
export function createAccountClosing(deps: {
  db: Database;
  secret: string;
  sessions: SessionService;
  storage: FileStorage;
  payments: Pick<PaymentService, 'stopReplacedSubscriptions'>;
  /** Drops what the users module remembers of the account. */
  forget: (userId: number) => void;
}) {
  const { db, sessions, storage } = deps;
  const passwords = createPasswordCheck(deps);

  return {
    async close(session: Session, password: string, address: string): Promise<void> {
      // An administrator closing themselves could leave the registry with none; another one switches it off.
      if (isAdministrator(session)) throw forbidden(messages.adminCannotCloseAccount);
      const [user] = await db.select().from(users).where(eq(users.id, session.userId));
      if (!user) throw notFound(messages.notFound);
      if (!(await passwords.check(user.email, user, password, address))) throw badRequest(messages.currentPasswordWrong);

      const phone = user.phoneNumber && normalisePhone(user.phoneNumber);
      const account: ClosingAccount = {
        id: user.id,
        email: user.email,
        needles: needlesOf(user, phone),
        firstName: user.firstName.toLowerCase(),
        phone,
        petIds: [],
        files: user.photo ? [{ folder: imageFolders.users, name: user.photo }] : [],
      };
      const photos = await db.transaction(async (tx) => {
        // One closing at a time: a second request waits, then finds the account closed.
        const [locked] = await tx.select({ email: users.email }).from(users).where(eq(users.id, user.id)).for('update');
        if (locked?.email !== user.email) throw notFound(messages.notFound);
        // The pets it holds now, locked: a transfer accepted meanwhile has taken its pet away (it locks
        // the pet first), and one accepted after waits, then finds the pet removed.
        const held = await tx.select({ id: pets.id }).from(pets).where(eq(pets.userId, user.id)).for('update');
        account.petIds = held.map((pet) => pet.id);
        for (const step of closingSteps) await step(tx, account);
        await recordAudit(tx, { actorUserId: user.id, action: 'close', entity: 'user', entityId: user.id, before: null, after: { closed: true } });
        return discardFiles(tx, account.files);
      });
      await sessions.revokeAllFor(user.id);
      deps.forget(user.id);
      await deps.payments.stopReplacedSubscriptions();
      // The account is closed whatever becomes of its photos: what cannot be deleted now (the storage or
      // the database out of reach), the worker deletes later from the notes the closing made.
      await deleteDiscardedFiles(db, storage, photos).catch(() => undefined);
    },
  };
}
