import { paths, withId, type CreatedPet } from '@petreg/contract';

/**
 * Spec 4: after registration a pet with a chip goes on to its plan (the sign-up flow's plan page when the
 * answer offers it), a pet without one to the lost-pet alert form.
 */
export function afterRegistration({ pet, enabled }: CreatedPet, flow: 'client' | 'signUp'): string {
  if (pet.chips.length === 0) return withId(paths.clientAddAlert, pet.id);
  return withId(flow === 'signUp' && enabled ? paths.petSubscription : paths.clientPetCheckout, pet.id);
}
