import { describe, expect, it } from 'vitest';
import { lastSeenZip, lostAlertFormSchema, sendPetAlertSchema } from './alert.js';
import { messages } from './messages.js';
import { petProfileSchema } from './pet.js';

const errorsOf = (result: { error?: { issues: { path: PropertyKey[]; message: string }[] } }) => {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
};

const hourAgo = () => new Date(Date.now() - 3600_000).toISOString();
const tomorrow = () => new Date(Date.now() + 86_400_000).toISOString();

const completeForm = () => ({
  id: 7,
  name: 'Biscuit',
  image: 'a1b2c3.jpg',
  speciesId: 1,
  breeds: [{ id: 3, name: 'Beagle' }],
  sex: 1,
  dob: '2020-05-01',
  missingDate: '2024-01-01T15:00:00-06:00',
  homeZipIsLastSeen: false,
  zipCode: '63101',
  incidentDescription: 'Slipped the leash near the park.',
});

describe('lost alert form', () => {
  it('accepts a complete form and sends the missing date on in UTC', () => {
    const parsed = lostAlertFormSchema.parse(completeForm());
    expect(parsed.missingDate).toBe('2024-01-01T21:00:00.000Z');
    expect(parsed.zipCode).toBe('63101');
  });

  it('shows every rule of spec 5 at once on an empty form', () => {
    const empty = { id: 7, name: 'Biscuit', image: null, breeds: [], sex: 0, dob: null, missingDate: '', zipCode: '', incidentDescription: '' };
    expect(errorsOf(lostAlertFormSchema.safeParse(empty))).toEqual({
      speciesId: messages.petSpeciesRequired,
      image: messages.imageRequired,
      breeds: messages.breedsRequired,
      sex: messages.petSexRequired,
      dob: messages.dobRequired,
      missingDate: messages.missingDateRequired,
      zipCode: messages.zipcodeRequired,
      incidentDescription: messages.incidentDescriptionRequired,
    });
  });

  it.each([
    ['image', { image: '' }, messages.imageRequired],
    ['breeds', { breeds: [] }, messages.breedsRequired],
    ['sex', { sex: 0 }, messages.petSexRequired],
    ['dob', { dob: undefined }, messages.dobRequired],
    ['dob', { dob: '2999-01-01' }, messages.dateInFuture],
    ['missingDate', { missingDate: undefined }, messages.missingDateRequired],
    ['missingDate', { missingDate: tomorrow() }, messages.dateInFuture],
    ['missingDate', { missingDate: '2024-02-30T10:00:00Z' }, messages.invalidDate],
    ['missingDate', { missingDate: '2024-01-01T15:00' }, messages.invalidDate],
    ['zipCode', { zipCode: undefined }, messages.zipcodeRequired],
    ['zipCode', { zipCode: '6310' }, messages.zipInvalid],
    ['incidentDescription', { incidentDescription: '   ' }, messages.incidentDescriptionRequired],
    ['incidentDescription', { incidentDescription: 'x'.repeat(201) }, messages.incidentDescriptionTooLong],
  ])('%s: %j', (field, change, message) => {
    expect(errorsOf(lostAlertFormSchema.safeParse({ ...completeForm(), ...change }))).toEqual({ [field]: message });
  });

  it('takes 200 characters of description, and a missing date an hour ago or as a bare date', () => {
    expect(lostAlertFormSchema.safeParse({ ...completeForm(), incidentDescription: 'x'.repeat(200), missingDate: hourAgo() }).success).toBe(true);
    expect(lostAlertFormSchema.parse({ ...completeForm(), missingDate: '2024-01-01' }).missingDate).toBe('2024-01-01T00:00:00.000Z');
  });

  it('needs no ZIP code when the home ZIP is where the pet was last seen', () => {
    const form = lostAlertFormSchema.parse({ ...completeForm(), homeZipIsLastSeen: true, zipCode: '' });
    expect(form.zipCode).toBeNull();
    expect(lastSeenZip(form, '63101-1234')).toBe('63101');
    expect(lastSeenZip(form, null)).toBeNull();
    expect(lastSeenZip({ homeZipIsLastSeen: false, zipCode: '10001' }, '63101')).toBe('10001');
  });

  it('keeps the pet form rules: chip confirmation and the 3-character name', () => {
    expect(errorsOf(lostAlertFormSchema.safeParse({ ...completeForm(), name: 'Bo', chipId: '985112345678901' }))).toEqual({
      name: messages.petNameMin3,
      confirmChip: messages.chipNotConfirmed,
      chipTypeId: messages.chipTypeRequired,
    });
  });
});

describe('pet profile with the missing pet details', () => {
  it('leaves them out when the ordinary edit form does not send them', () => {
    const parsed = petProfileSchema.parse({ id: 7, name: 'Biscuit', speciesId: 1 });
    expect(parsed.missingDate).toBeUndefined();
    expect(parsed.zipCode).toBeUndefined();
    expect(parsed.incidentDescription).toBeUndefined();
  });

  it('checks them when sent, and clears them when empty', () => {
    expect(errorsOf(petProfileSchema.safeParse({ id: 7, name: 'Biscuit', speciesId: 1, missingDate: tomorrow(), zipCode: 'abcde', incidentDescription: 'x'.repeat(201) }))).toEqual({
      missingDate: messages.dateInFuture,
      zipCode: messages.zipInvalid,
      incidentDescription: messages.incidentDescriptionTooLong,
    });
    const cleared = petProfileSchema.parse({ id: 7, name: 'Biscuit', speciesId: 1, missingDate: null, zipCode: '', incidentDescription: '' });
    expect(cleared).toMatchObject({ missingDate: null, zipCode: null, incidentDescription: null });
  });
});

describe('send alert call', () => {
  it('takes the spec body, status NEW', () => {
    const body = { name: 'Biscuit', petId: 7, missingDate: hourAgo(), zipCode: '63101', incidentDescription: 'Near the park', status: 'NEW' };
    expect(sendPetAlertSchema.parse(body)).toMatchObject({ petId: 7, zipCode: '63101', status: 'NEW' });
    expect(sendPetAlertSchema.parse({ ...body, zipCode: null }).zipCode).toBeNull();
    expect(errorsOf(sendPetAlertSchema.safeParse({ ...body, status: 'paid', incidentDescription: '' }))).toEqual({
      status: messages.invalidRequest,
      incidentDescription: messages.incidentDescriptionRequired,
    });
  });
});
