import { formatRegisteredUntil, paths, withId, type Pet } from '@petreg/contract';
import bird from './images/bird.svg';
import cat from './images/cat.svg';
import dog from './images/dog.svg';
import paw from './images/paw.svg';
import rabbit from './images/rabbit.svg';

const speciesImages: Record<string, string> = { dog, cat, bird, rabbit };

/** Spec 2.3: a pet without a photo shows its species' picture; a dog when the species is unknown. */
export function speciesImage(species: string | null | undefined): string {
  return species ? (speciesImages[species.toLowerCase()] ?? paw) : dog;
}

export function petImage(pet: Pick<Pet, 'imageUrl' | 'species'>): string {
  return pet.imageUrl ?? speciesImage(pet.species);
}

/** Spec 2.3: the tile's warning, or null when the pet's registration is in order. */
export function petWarning(pet: Pet): string | null {
  if (pet.subscriptionExpired) return 'Chip Deactivated';
  if (!pet.isActive || pet.chips.some((chip) => !chip.isActive)) return 'Registration Incomplete';
  return null;
}

/** Spec 2.4: an active pet opens its profile, an inactive one its plan choice. */
export function petTilePath(pet: Pet): string {
  return withId(pet.isActive ? paths.clientPetUpdate : paths.clientPetCheckout, pet.id);
}

/** Spec 2.4: registered means an active pet with a chip. */
export const isRegistered = (pet: Pet) => pet.isActive && pet.chips.length > 0;

export type Coverage = { plan: 'none' } | { plan: 'lifetime' } | { plan: 'yearly'; until: string };

/** What protects the pet now: nothing, a yearly plan until a date, or a lifetime plan. */
export function coverage(pet: Pet): Coverage {
  const chip = pet.chips[0];
  // A chip added after the old one was removed is not covered until it is paid for, whatever the pet's state.
  if (!isRegistered(pet) || !chip?.isActive) return { plan: 'none' };
  if (chip.oneTime || !chip.expirationDate) return { plan: 'lifetime' };
  return { plan: 'yearly', until: chip.expirationDate };
}

/** Spec 2.4 registration state: Not Registered, Registered Until {MMM DD, YYYY}, or Lifetime. */
export function registrationStatus(pet: Pet): string {
  const covered = coverage(pet);
  if (covered.plan === 'none') return 'Not Registered';
  if (covered.plan === 'lifetime') return 'Lifetime';
  return `Registered Until ${formatRegisteredUntil(covered.until)}`;
}
