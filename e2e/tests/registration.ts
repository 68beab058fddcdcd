/** The static data a registration names its choices from (`utilities/static-data`). */
export interface RegistrationChoices {
  species: { id: number; name: string }[];
  brands: { id: number; name: string }[];
}

/**
 * A chipped dog, sharing its owner's contact details, as the registration form sends it
 * (`Pet/create-pet`): the journeys' and the page benchmark's pet.
 */
export const dogRegistration = (chipId: string, choices: RegistrationChoices, name = 'Biscuit') => ({
  name,
  chipId,
  confirmChip: chipId,
  chipTypeId: choices.brands.find((b) => b.name === 'HomeAgain')!.id,
  speciesId: choices.species.find((s) => s.name === 'Dog')!.id,
  sex: 2,
  dob: '2022-02-10',
  approximateWeight: 42,
  shareContactInfo: true,
});
