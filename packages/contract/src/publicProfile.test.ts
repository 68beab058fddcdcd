import { describe, expect, it } from 'vitest';
import {
  ageInMonths,
  contactNumbers,
  formatAge,
  formatFoundSince,
  formatLostTime,
  isSafeAtHome,
  lastSeenText,
  lbsToKg,
  petNameLabel,
  sharesContact,
  type PublicPetProfile,
} from './publicProfile.js';

describe('age wording', () => {
  it.each([
    [1, 'one month'],
    [2, '2 months'],
    [11, '11 months'],
    [12, 'one year'],
    [13, '1 year\n1 month'],
    [14, '1 year\n2 months'],
    [24, '2 years'],
    [27, '2 years\n3 months'],
  ])('%i months reads %j', (months, text) => {
    expect(formatAge(months)).toBe(text);
  });

  it('counts whole months since the date of birth, 0 without one', () => {
    const now = new Date(2024, 5, 15);
    expect(ageInMonths('2023-05-15', now)).toBe(13);
    expect(ageInMonths('2023-05-16', now)).toBe(12);
    expect(ageInMonths('2024-06-01', now)).toBe(0);
    expect(ageInMonths(null, now)).toBe(0);
    expect(ageInMonths('2025-01-01', now)).toBe(0);
  });
});

describe('lost and found times', () => {
  it('formats the lost time like 3PM Monday Jan 1st, 2024', () => {
    expect(formatLostTime(new Date(2024, 0, 1, 15, 20))).toBe('3PM Monday Jan 1st, 2024');
    expect(formatLostTime(new Date(2024, 2, 22, 9, 0))).toBe('9AM Friday Mar 22nd, 2024');
    expect(formatLostTime(new Date(2023, 10, 3, 0, 5))).toBe('12AM Friday Nov 3rd, 2023');
  });

  it('says how long ago the pet was found', () => {
    expect(formatFoundSince(new Date(2024, 0, 1), new Date(2024, 0, 4))).toBe('3 days ago');
  });
});

const profile = (overrides: Partial<PublicPetProfile> = {}): PublicPetProfile => ({
  petName: 'Biscuit',
  species: 'Dog',
  breed: 'Beagle',
  age: 30,
  sex: 1,
  weight: 19.1,
  image: null,
  zipcode: '78701',
  lastSeenPlace: 'Austin, TX 78701',
  missingDate: null,
  foundDate: null,
  foundSince: null,
  alertStatus: null,
  shareContactInfo: true,
  firstName: 'Jamie',
  lastName: 'Rivera',
  state: { abbreviation: 'TX' },
  country: 'US',
  userPhoto: null,
  email: null,
  phone: null,
  backupContacts: [],
  ...overrides,
});

describe('profile display rules', () => {
  it('shows the last-seen place only while the pet is missing', () => {
    expect(lastSeenText(profile())).toBe('Home');
    const missing = { missingDate: '2024-01-01T15:00:00Z' };
    expect(lastSeenText(profile(missing))).toBe('Last Seen in Austin, TX 78701, USA');
    expect(lastSeenText(profile({ ...missing, zipcode: '00000', lastSeenPlace: '00000' }))).toBe('Last Seen in 00000, USA');
    expect(lastSeenText(profile({ ...missing, zipcode: null, lastSeenPlace: null }))).toBe('Last Seen in USA');
  });

  it('shares contact only for a missing pet whose owner shares it, until it is found', () => {
    const missing = { missingDate: '2024-01-01T15:00:00Z' };
    expect(sharesContact(profile(missing))).toBe(true);
    expect(sharesContact(profile({ ...missing, shareContactInfo: false }))).toBe(false);
    expect(sharesContact(profile())).toBe(false);
    expect(sharesContact(profile({ ...missing, foundDate: '2024-01-03T10:00:00Z' }))).toBe(false);
    expect(sharesContact(profile({ ...missing, foundDate: '2023-12-01T10:00:00Z' }))).toBe(true);
  });

  it('is safe at home without an open alert or a missing report', () => {
    expect(isSafeAtHome(profile())).toBe(true);
    expect(isSafeAtHome(profile({ alertStatus: 'paid' }))).toBe(false);
    expect(isSafeAtHome(profile({ missingDate: '2024-01-01T15:00:00Z' }))).toBe(false);
  });

  it('weighs in kilograms and labels the name by species', () => {
    expect(lbsToKg(42)).toBe(19.1);
    expect(lbsToKg(0)).toBe(0);
    expect(petNameLabel('Dog')).toBe('Dog name');
    expect(petNameLabel(null)).toBe("Pet's name");
  });

  it("offers the owner's, the first vet's and the first guardian's numbers that exist", () => {
    const pet = profile({ phone: '+14155552671', backupContacts: [{ id: 3, phoneNumber: '+14155550000' }] });
    expect(contactNumbers({ pet, sites: [{ id: 1, googlePlaceId: null, phoneNumber: '+14155551111' }] })).toEqual([
      { label: "Owner's Number", phone: '+14155552671' },
      { label: "Vet's Number", phone: '+14155551111' },
      { label: "Guardian's Number", phone: '+14155550000' },
    ]);
    expect(contactNumbers({ pet: profile({ phone: '+14155552671' }), sites: [] })).toEqual([
      { label: "Owner's Number", phone: '+14155552671' },
    ]);
  });
});
