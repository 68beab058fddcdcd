import { describe, expect, it } from 'vitest';
import { adminPetSchema } from './adminRecords.js';
import { messages } from './messages.js';
import { backupContactSchema, petProfileSchema, petRegistrationSchema } from './pet.js';

const errorsOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
};

describe('pet registration form', () => {
  it('shows the chip rules together with the other fields on the first try', () => {
    expect(errorsOf(petRegistrationSchema.safeParse({ name: '', chipId: '123', confirmChip: '' }))).toEqual({
      name: messages.petNameRequired,
      speciesId: messages.petSpeciesRequired,
      chipId: messages.chipTooShort,
      confirmChip: messages.chipNotConfirmed,
      chipTypeId: messages.chipTypeRequired,
    });
  });

  it('normalises the chip before comparing it with the confirmation', () => {
    const parsed = petRegistrationSchema.parse({ name: 'Rex', speciesId: 1, chipId: 'AVID*123*456*789', confirmChip: '123-456-789', chipTypeId: 1 });
    expect(parsed.chipId).toBe('123456789');
  });

  it('needs nothing about a chip when there is none', () => {
    expect(petRegistrationSchema.safeParse({ name: 'Rex', speciesId: 1 }).success).toBe(true);
  });

  it('asks 2 characters of a name at registration and 3 on the owner edit form', () => {
    expect(petRegistrationSchema.safeParse({ name: 'Bo', speciesId: 1 }).success).toBe(true);
    expect(errorsOf(petProfileSchema.safeParse({ id: 1, name: 'Bo', speciesId: 1 }))).toEqual({ name: messages.petNameMin3 });
  });

  it('takes one line of colour and markings, up to 60 characters, on every pet form', () => {
    const pet = { id: 1, name: 'Rex', speciesId: 1 };
    expect(petRegistrationSchema.parse({ ...pet, colour: ' Grey tabby ' }).colour).toBe('Grey tabby');
    expect(petProfileSchema.parse({ ...pet, colour: '' }).colour).toBeNull();
    expect(errorsOf(petRegistrationSchema.safeParse({ ...pet, colour: 'c'.repeat(61) }))).toEqual({ colour: messages.colourTooLong });
    expect(errorsOf(petProfileSchema.safeParse({ ...pet, colour: 'Grey\ttabby' }))).toEqual({ colour: messages.controlCharacter });
    expect(errorsOf(adminPetSchema.safeParse({ ...pet, colour: 'Grey\nBcc: x@evil.example' }))).toEqual({ colour: messages.controlCharacter });
  });

  it('limits breeds to 3 and notes to 200 characters', () => {
    const breeds = [1, 2, 3, 4].map((id) => ({ id, name: `B${id}` }));
    expect(errorsOf(petRegistrationSchema.safeParse({ name: 'Rex', speciesId: 1, breeds, notes: 'n'.repeat(201) }))).toEqual({
      breeds: messages.breedsMax,
      notes: messages.notesTooLong,
    });
  });
});

describe('backup contact form', () => {
  it.each([
    [{ name: '', phoneNumber: '5035550199' }, { name: messages.contactNameRequired }],
    [{ name: 'R', phoneNumber: '5035550199' }, { name: messages.contactNameMin }],
    [{ name: 'Rose', phoneNumber: '' }, { phoneNumber: messages.contactPhoneRequired }],
    [{ name: 'Rose', phoneNumber: '50355' }, { phoneNumber: messages.contactPhoneInvalid }],
  ])('%j', (input, errors) => {
    expect(errorsOf(backupContactSchema.safeParse(input))).toEqual(errors);
  });
});
