import dayjs from 'dayjs';
import advancedFormat from 'dayjs/plugin/advancedFormat.js';
import relativeTime from 'dayjs/plugin/relativeTime.js';
import utc from 'dayjs/plugin/utc.js';

// "Do" (1st, 2nd, 3rd) comes from advancedFormat; "3 days ago" from relativeTime.
dayjs.extend(advancedFormat);
dayjs.extend(relativeTime);
dayjs.extend(utc);

/**
 * The public pet profile of spec 3 (GET pet/pet-profiles/{publicId}). Owner contact fields are
 * filled only while the pet is missing and its owner chose to share them; otherwise they are
 * null or empty, so nothing leaves the server that the page would not show.
 */
export interface PublicPetProfile {
  petName: string;
  species: string | null;
  /** The pet's breeds, comma-separated. */
  breed: string | null;
  /** Whole months since the date of birth; 0 when unknown. */
  age: number;
  sex: 0 | 1 | 2;
  /** Kilograms (owners enter pounds). */
  weight: number | null;
  image: string | null;
  /** Where the pet was last seen, while it is missing. */
  zipcode: string | null;
  /** That ZIP as a place, "Saint Louis, MO 63101"; the bare ZIP when the ZIP table does not know it. */
  lastSeenPlace: string | null;
  missingDate: string | null;
  foundDate: string | null;
  /** How long ago the pet was found, in words. */
  foundSince: string | null;
  /** Status of the pet's open lost-pet alert; null when there is none. */
  alertStatus: string | null;
  /** The owner's choice; false while the owner's record is protected (nothing of the owner is shared then). */
  shareContactInfo: boolean;
  /** Null, with the owner's place, photo and contacts, while an administrator protects the owner's record. */
  firstName: string | null;
  lastName: string | null;
  state: { abbreviation: string } | null;
  country: string | null;
  userPhoto: string | null;
  email: string | null;
  phone: string | null;
  /** Only the first backup contact: the only one the contact menu offers (spec 9). */
  backupContacts: { id: number; phoneNumber: string }[];
}

/** A vet of the pet; only the first, and only with the contact fields (spec 9). */
export interface PublicSite {
  id: number;
  googlePlaceId: string | null;
  phoneNumber: string | null;
}

export interface PublicProfile {
  pet: PublicPetProfile;
  sites: PublicSite[];
}

type MissingState = Pick<PublicPetProfile, 'missingDate' | 'foundDate'>;

/** Missing from its missing date until it is found again. */
export function isMissing({ missingDate, foundDate }: MissingState): boolean {
  if (!missingDate) return false;
  return !foundDate || Date.parse(foundDate) < Date.parse(missingDate);
}

/** Spec 2.5: the Contact section, and the owner's contact fields, only for a missing pet whose owner shares them. */
export function sharesContact(pet: MissingState & Pick<PublicPetProfile, 'shareContactInfo'>): boolean {
  return pet.shareContactInfo && isMissing(pet);
}

/** Spec 2.5: "Not lost / Safe at home" when no alert is open — and the pet is not reported missing either. */
export function isSafeAtHome(pet: MissingState & Pick<PublicPetProfile, 'alertStatus'>): boolean {
  return !pet.alertStatus && !isMissing(pet);
}

/** Whole months from the date of birth to now; 0 without a date of birth. */
export function ageInMonths(dob: string | null, now: Date = new Date()): number {
  return dob ? Math.max(0, dayjs(now).diff(dayjs(dob), 'month')) : 0;
}

const count = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'}`;

/** Spec 2.5: one month, N months, one year, then years and months on two lines. */
export function formatAge(months: number): string {
  if (months === 1) return 'one month';
  if (months < 12) return `${months} months`;
  if (months === 12) return 'one year';
  const years = count(Math.floor(months / 12), 'year');
  const rest = months % 12;
  return rest ? `${years}\n${count(rest, 'month')}` : years;
}

/**
 * Spec 2.5: the Lost time, like "3PM Monday Jan 1st, 2024", in the reader's time zone; in UTC, saying
 * so, where the reader's zone is unknown (a page rendered on the server).
 */
export function formatLostTime(value: string | Date, zone: 'reader' | 'utc' = 'reader'): string {
  return zone === 'utc' ? dayjs.utc(value).format('hA dddd MMM Do, YYYY [UTC]') : dayjs(value).format('hA dddd MMM Do, YYYY');
}

/** How long ago the pet was found: "3 days ago". */
export function formatFoundSince(foundDate: string | Date, now: Date = new Date()): string {
  return dayjs(foundDate).from(now);
}

const KG_PER_LB = 0.45359237;

/** Spec 9: owners weigh in pounds, the public profile shows kilograms, to one decimal. */
export function lbsToKg(lbs: number): number {
  return Math.round(lbs * KG_PER_LB * 10) / 10;
}

/**
 * Spec 2.5: "Last Seen in {address}" for a missing pet, otherwise "Home". The place of the last-seen
 * ZIP is the only address stored, and the registry is US-only, so the country reads USA.
 */
export function lastSeenText(pet: Pick<PublicPetProfile, 'missingDate' | 'lastSeenPlace'>): string {
  if (!pet.missingDate) return 'Home';
  return `Last Seen in ${[pet.lastSeenPlace, 'USA'].filter(Boolean).join(', ')}`;
}

/** Spec 2.5: "{species} name", or "Pet's name" when the species is unknown. */
export function petNameLabel(species: string | null): string {
  return species ? `${species} name` : "Pet's name";
}

/** The numbers of the wide-screen contact menu: the owner's, the first vet's and the first backup contact's. */
export function contactNumbers({ pet, sites }: PublicProfile): { label: string; phone: string }[] {
  const numbers = [
    { label: "Owner's Number", phone: pet.phone },
    { label: "Vet's Number", phone: sites[0]?.phoneNumber ?? null },
    { label: "Guardian's Number", phone: pet.backupContacts[0]?.phoneNumber ?? null },
  ];
  return numbers.filter((n): n is { label: string; phone: string } => Boolean(n.phone));
}
