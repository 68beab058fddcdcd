import {
  isSameEmail,
  messages,
  normalisePhone,
  type AdminPet,
  type AdminPetUpdate,
  type AdminUser,
  type AdminUserUpdate,
  type Pet,
} from '@petreg/contract';
import { and, asc, eq } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { imageUrl } from '../../adapters/storage/images.js';
import { recordAudit } from '../../db/audit.js';
import type { Database, Transaction } from '../../db/client.js';
import { isUniqueViolation } from '../../db/errors.js';
import { chips, mailOutbox, pets, plans, users } from '../../db/schema.js';
import { conflict, notFound } from '../../errors.js';
import type { Session, SessionService } from '../../plugins/auth.js';
import { currentChip } from '../payments/shared.js';
import { recordProtectionOf } from './protectedRecord.js';
import type { PetService } from '../pets/service.js';
import { readContactCheck } from '../contacts/ownerCheck.js';
import { byEmail } from '../users/accounts.js';
import { emailChangedNotice } from '../users/emails.js';
import { voidMailedLinks } from '../users/mailedLinks.js';
import type { UserService } from '../users/service.js';

export interface AdminRecordDeps {
  db: Database;
  petService: PetService;
  accounts: UserService;
  sessions: SessionService;
}

export type AdminRecords = ReturnType<typeof createAdminRecords>;

/** The administrator who set a pet's dispute hold. */
const holder = alias(users, 'holder');

/** The owner's and the pet's cards of admin/pet/:id: read and save (spec 2.7, 7). */
export function createAdminRecords(deps: AdminRecordDeps) {
  const { db, petService, accounts, sessions } = deps;

  async function userRow(userId: number) {
    const [row] = await db.select().from(users).where(eq(users.id, userId));
    if (!row) throw notFound(messages.notFound);
    return row;
  }

  /** The pet as every owner call shows it, with its owner and plan, and when it was removed. */
  async function adminPet(pet: Pet): Promise<AdminPet> {
    const [row] = await db
      .select({
        userId: pets.userId,
        deletedAt: pets.deletedAt,
        plan: { id: plans.id, name: plans.name, oneTime: plans.oneTime },
        hold: { reason: pets.transferHoldReason, at: pets.transferHoldAt, byEmail: holder.email, byFirst: holder.firstName, byLast: holder.lastName },
      })
      .from(pets)
      .leftJoin(plans, eq(plans.id, pets.planId))
      .leftJoin(holder, eq(holder.id, pets.transferHoldBy))
      .where(eq(pets.id, pet.id));
    const { userId, deletedAt, plan, hold } = row!;
    const transferHold =
      hold.reason && hold.at
        ? { reason: hold.reason, at: hold.at.toISOString(), by: `${hold.byFirst ?? ''} ${hold.byLast ?? ''}`.trim() || (hold.byEmail ?? '') }
        : null;
    if (!deletedAt) return { ...pet, userId, plan, removed: null, transferHold };
    // The removal retired the chips the pet carried in its own transaction, at the same moment.
    const retired = await db
      .select({ chipId: chips.chipId })
      .from(chips)
      .where(and(eq(chips.petId, pet.id), eq(chips.removedAt, deletedAt)))
      .orderBy(asc(chips.id));
    return { ...pet, userId, plan, removed: { at: deletedAt.toISOString(), chipIds: retired.map((c) => c.chipId) }, transferHold };
  }

  return {
    async getUser(userId: number): Promise<AdminUser> {
      const row = await userRow(userId);
      const user = await accounts.loadUser(userId);
      const [protection, contactCheck] = await Promise.all([recordProtectionOf(db, userId), readContactCheck(db, userId)]);
      return { ...user, data: { ...user.data, paymentCustomerId: row.paymentCustomerId, imageUrl: imageUrl('users', row.photo), protection, contactCheck } };
    },

    /**
     * Saves the owner's card. The administrator changes the e-mail outright (the owner asked on the
     * phone; the old address is told, and links mailed to it end); switching an account off ends its sessions.
     */
    async updateUser(session: Session, userId: number, input: AdminUserUpdate): Promise<AdminUser> {
      const current = await userRow(userId);
      // An administrator who switched themselves off would be signed out with no one to switch them back on.
      if (userId === session.userId && !input.isActive) throw conflict(messages.ownAccountDisable);
      const emailChanged = !isSameEmail(input.email, current.email);
      // An administrator's sign-in is their own to change, through the profile and its password: here a
      // stolen session could take over, or lock out, every other administrator.
      if (current.roles.includes('admin') && (emailChanged || !input.isActive)) throw conflict(messages.administratorAccountProtected);
      if (emailChanged) {
        const [holder] = await db.select({ id: users.id }).from(users).where(byEmail(input.email));
        if (holder) throw conflict(messages.emailTaken);
      }
      const saved = { ...input, phoneNumber: input.phoneNumber ? normalisePhone(input.phoneNumber) : null };
      try {
        await db.transaction(async (tx) => {
          // A new address was told on the phone, never proven: a provider's sign-in must not join it on its word.
          // Likewise a number told on the phone: the owner proves it with a texted code from the profile.
          const proof = { ...(emailChanged ? { emailVerifiedAt: null, emailBouncedAt: null } : {}), ...(saved.phoneNumber !== current.phoneNumber ? { phoneVerifiedAt: null } : {}) };
          await tx.update(users).set({ ...saved, ...proof, updatedAt: new Date() }).where(eq(users.id, userId));
          if (emailChanged) {
            await voidMailedLinks(tx, userId);
            await tx.insert(mailOutbox).values({ recipient: current.email, ...emailChangedNotice(current.firstName, input.email) });
          }
          const { passwordHash: _secret, ...before } = current;
          await recordAudit(tx, { actorUserId: session.userId, action: 'update', entity: 'user', entityId: userId, before, after: saved });
        });
      } catch (error) {
        // Another account took the address between the check and the update.
        if (isUniqueViolation(error)) throw conflict(messages.emailTaken);
        throw error;
      }
      if (current.isActive && !input.isActive) await sessions.revokeAllFor(userId);
      accounts.forget(userId);
      return this.getUser(userId);
    },

    /** Removed pets too: their record stays for the audit, and a search by one of their chips leads here. */
    async getPet(petId: number): Promise<AdminPet> {
      return adminPet(await petService.getIncludingRemoved(petId));
    },

    /**
     * Saves the pet's card through the pet form's own rules (the administrator may move a paid
     * registration to a new chip number), with the pet's and the chip's enabled switches in the same transaction.
     */
    async updatePet(session: Session, input: AdminPetUpdate): Promise<AdminPet> {
      const stored = await petService.get(session, input.id);
      const { microchip1, isChipActive, isActive, chipTypeId, shareContactInfo, ...fields } = input;
      const switches = async (tx: Transaction, petId: number) => {
        if (isActive !== undefined) await tx.update(pets).set({ isActive }).where(eq(pets.id, petId));
        const chip = await currentChip(tx, petId);
        if (chip && isChipActive !== undefined) await tx.update(chips).set({ isActive: isChipActive }).where(eq(chips.id, chip.id));
        return { isActive, isChipActive: chip ? isChipActive : null };
      };
      const saved = await petService.update(
        session,
        {
          ...fields,
          shareContactInfo: shareContactInfo ?? stored.shareContactInfo,
          chipId: microchip1,
          confirmChip: microchip1,
          // The admin form names no brand: a new number keeps the brand the chip had.
          chipTypeId: microchip1 ? (chipTypeId ?? stored.chips[0]?.chipTypeId ?? null) : null,
          // A missing pet's details are the lost alert's, not the admin form's: kept as they are.
          incidentDescription: undefined,
        },
        switches,
      );
      const pet = await adminPet(saved);
      // The owner's haveActivePets may have changed with the switch.
      accounts.forget(pet.userId);
      return pet;
    },
  };
}

