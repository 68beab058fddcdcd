import { toApiDate, type Pet, type PetProfileInput } from '@petreg/contract';
import type { DefaultValues } from 'react-hook-form';

/** A stored pet as the values of the fields every pet form holds under the same names (see PetFields). */
export function petFieldValues(pet: Pet) {
  return {
    id: pet.id,
    name: pet.name,
    breeds: pet.breeds,
    sex: pet.sex,
    dob: toApiDate(pet.dob),
    lastRabiesVaccine: toApiDate(pet.lastRabiesVaccine),
    approximateWeight: pet.approximateWeight,
    colour: pet.colour ?? '',
    spayedNeutered: pet.spayedNeutered,
    notes: pet.notes ?? '',
    // The stored name stands for "keep the photo"; a newly chosen one replaces it with a data URL.
    image: pet.image,
  };
}

/** A stored pet as the values of a form that saves it with PUT Pet/pet-profile (the edit form, the lost alert form). */
export function petProfileValues(pet: Pet): DefaultValues<PetProfileInput> {
  const chip = pet.chips[0];
  return {
    ...petFieldValues(pet),
    chipId: chip?.chipId ?? '',
    confirmChip: chip?.chipId ?? '',
    chipTypeId: chip?.chipTypeId ?? null,
    speciesId: pet.speciesId ?? undefined,
    shareContactInfo: pet.shareContactInfo,
    verificationQuestion: pet.verificationQuestion ?? '',
  };
}
