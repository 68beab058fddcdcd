import { describe, expect, it } from 'vitest';
import { adminPetSchema, adminUserSchema, transferDialogSchema } from './adminRecords.js';
import { messages } from './messages.js';

const errorsOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
};

const pet = { id: 1, name: 'Rex', speciesId: 1, microchip1: '', isChipActive: false, isActive: true };

describe('the admin pet form', () => {
  it('takes a two-letter name, which the owner form refuses', () => {
    expect(adminPetSchema.safeParse({ ...pet, name: 'Bo' }).success).toBe(true);
    expect(errorsOf(adminPetSchema.safeParse({ ...pet, name: 'B' }))).toEqual({ name: messages.petNameMin2 });
  });

  it('puts the chip rules on the microchip field, normalised, with no confirmation', () => {
    expect(errorsOf(adminPetSchema.safeParse({ ...pet, microchip1: '1234' }))).toEqual({ microchip1: messages.chipTooShort });
    expect(errorsOf(adminPetSchema.safeParse({ ...pet, microchip1: '12345678901' }))).toEqual({ microchip1: messages.lookupLength });
    expect(adminPetSchema.parse({ ...pet, microchip1: 'avid*123*456*789' }).microchip1).toBe('123456789');
  });

  it('takes a switch only when it is sent, and then as true or false', () => {
    const { isActive: _on, isChipActive: _chipOn, ...withoutSwitches } = pet;
    const kept = adminPetSchema.parse(withoutSwitches);
    expect(kept.isActive).toBeUndefined();
    expect(kept.isChipActive).toBeUndefined();
    expect(errorsOf(adminPetSchema.safeParse({ ...withoutSwitches, isActive: 'yes', isChipActive: 1 }))).toEqual({
      isActive: messages.invalidChoice,
      isChipActive: messages.invalidChoice,
    });
  });
});

describe('the admin user form', () => {
  it('has the profile rules and the enabled switch, and no password', () => {
    const user = { firstName: 'Al', lastName: 'Bo', email: 'al@example.com', isActive: false, currentPassword: 'ignored' };
    expect(adminUserSchema.parse(user)).not.toHaveProperty('currentPassword');
    expect(errorsOf(adminUserSchema.safeParse({ ...user, firstName: 'A', email: 'x' }))).toEqual({
      firstName: messages.firstNameMin,
      email: messages.emailInvalid,
    });
  });
});

describe('the transfer dialog', () => {
  it("says Emails don't match unless the two agree, whatever their letter case", () => {
    expect(errorsOf(transferDialogSchema.safeParse({ email: 'new@example.com', confirmEmail: 'other@example.com' }))).toEqual({
      confirmEmail: messages.emailsDoNotMatch,
    });
    expect(transferDialogSchema.safeParse({ email: 'new@example.com', confirmEmail: 'NEW@example.com' }).success).toBe(true);
  });
});
