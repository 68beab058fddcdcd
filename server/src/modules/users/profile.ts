import { hash } from '@node-rs/argon2';
import { isSameEmail, messages, normalisePhone, type ChangePasswordInput, type User } from '@petreg/contract';
import type { profileSchema, userSettingsSchema } from '@petreg/contract';
import { eq } from 'drizzle-orm';
import type { z } from 'zod';
import { discardImage, imageFolders, isStoredImageName, keptImage, resolveImageField } from '../../adapters/storage/images.js';
import type { FileStorage, ServedFile } from '../../adapters/storage/index.js';
import { recordAudit } from '../../db/audit.js';
import type { Database } from '../../db/client.js';
import { users } from '../../db/schema.js';
import { badRequest, conflict, forbidden, notFound } from '../../errors.js';
import { mayActFor, type Session, type SessionService } from '../../plugins/auth.js';
import type { Accounts } from './accounts.js';
import { requestEmailChange } from './emailChange.js';
import { voidMailedLinks } from './mailedLinks.js';
import { textPhoneCode } from './phoneVerification.js';
import type { PasswordCheck } from './signIn.js';

export function createProfile(
  deps: { db: Database; sessions: SessionService; storage: FileStorage; publicUrl: string; secret: string; registryName: string },
  accounts: Accounts,
  passwords: PasswordCheck,
) {
  const { db, sessions, storage } = deps;
  const { forget, loadUser } = accounts;

  /** Asked before a change a stolen session alone must not make; guesses count like sign-ins. */
  async function passwordMatches(userId: number, password: string, address: string) {
    const [user] = await db.select({ id: users.id, email: users.email, passwordHash: users.passwordHash }).from(users).where(eq(users.id, userId));
    return user ? passwords.check(user.email, user, password, address) : false;
  }

  return {
    /**
     * Saves the profile. A new e-mail takes effect only once the link mailed to it is followed, and
     * asking for it takes the signed-in person's current password; a change of letter case is the same address.
     * A new mobile number is unverified until the code texted to it comes back.
     */
    async updateProfile(session: Session, id: number, input: z.output<typeof profileSchema>, address: string): Promise<User> {
      if (!mayActFor(session, id)) throw forbidden(messages.forbidden);
      const [current] = await db.select().from(users).where(eq(users.id, id));
      if (!current) throw notFound(messages.notFound);
      const { photo: sentPhoto, currentPassword, email, ...fields } = input;
      const newEmail = isSameEmail(email, current.email) ? null : email;
      if (newEmail) {
        if (!currentPassword) throw badRequest(messages.currentPasswordRequired);
        if (!(await passwordMatches(session.userId, currentPassword, address))) throw badRequest(messages.currentPasswordWrong);
        const holder = await accounts.findByEmail(newEmail);
        if (holder) throw conflict(messages.emailTaken);
      }
      const phoneNumber = fields.phoneNumber ? normalisePhone(fields.phoneNumber) : null;
      const newPhone = phoneNumber !== current.phoneNumber;
      const saved = {
        ...fields,
        email: newEmail ? current.email : email,
        phoneNumber,
        ...(newPhone ? { phoneVerifiedAt: null } : {}),
      };
      const sent = sentPhoto === undefined ? current.photo : await resolveImageField(storage, imageFolders.users, sentPhoto, current.photo);
      let photos: { photo: string | null; replaced: string | null };
      try {
        photos = await db.transaction(async (tx) => {
          // The photo this change replaces is the one the row names now, which another edit may have changed.
          const [locked] = await tx.select({ photo: users.photo }).from(users).where(eq(users.id, id)).for('update');
          const photo = keptImage(sent, current.photo, locked!.photo);
          await tx.update(users).set({ ...saved, photo, updatedAt: new Date() }).where(eq(users.id, id));
          if (newEmail) await requestEmailChange(tx, deps.publicUrl, current, newEmail);
          // Past the hour's codes the number is saved unverified; the profile offers a new code later.
          if (newPhone && phoneNumber) await textPhoneCode(tx, deps, id, phoneNumber);
          if (id !== session.userId) {
            const { passwordHash: _secret, ...before } = current;
            await recordAudit(tx, { actorUserId: session.userId, action: 'update', entity: 'user', entityId: id, before, after: saved });
          }
          return { photo, replaced: locked!.photo };
        });
      } catch (error) {
        await discardImage(storage, imageFolders.users, sent, current.photo);
        throw error;
      }
      await discardImage(storage, imageFolders.users, photos.replaced, photos.photo);
      forget(id);
      return loadUser(id);
    },

    async image(name: string): Promise<ServedFile | null> {
      return isStoredImageName(name) ? storage.open(imageFolders.users, name) : null;
    },

    async changePassword(session: Session, input: ChangePasswordInput, address: string): Promise<void> {
      if (!(await passwordMatches(session.userId, input.currentPassword, address))) throw badRequest(messages.currentPasswordWrong);
      const passwordHash = await hash(input.newPassword);
      await db.transaction(async (tx) => {
        await tx.update(users).set({ passwordHash, updatedAt: new Date() }).where(eq(users.id, session.userId));
        await voidMailedLinks(tx, session.userId);
      });
      // A stolen token must not outlive the password it was issued under.
      await sessions.revokeAllFor(session.userId, { except: session.sessionId });
    },

    async updateSettings(session: Session, input: z.output<typeof userSettingsSchema>): Promise<User> {
      await db
        .update(users)
        .set({ settings: input.data.settings, shortcuts: input.data.shortcuts, updatedAt: new Date() })
        .where(eq(users.id, session.userId));
      forget(session.userId);
      return loadUser(session.userId);
    },
  };
}
