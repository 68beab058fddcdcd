import type { CreatedPet, NamedItem, Pet, PetProfile, PetRegistration, StaticData } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orEmpty } from '../../app/api';

export const userPetsKey = ['pet', 'user-pets'] as const;
export const petKey = (id: number) => ['Pet', id] as const;

/** The owner's pets; a failed fetch shows none (spec 8). */
export function useUserPets() {
  return useQuery({
    queryKey: userPetsKey,
    queryFn: ({ signal }) => orEmpty(api.get<Pet[]>('pet/user-pets', { signal }), 'pets'),
  });
}

export function usePet(id: number) {
  return useQuery({ queryKey: petKey(id), queryFn: ({ signal }) => api.get<Pet>(`Pet/${id}`, { signal }) });
}

/** Species and microchip brands. */
export function useStaticData() {
  return useQuery({
    queryKey: ['utilities', 'static-data'],
    queryFn: ({ signal }) => api.get<StaticData>('utilities/static-data', { signal }),
    staleTime: Infinity,
  });
}

/** Breeds of a species, once one is chosen. */
export function useBreedsBySpecies(speciesId: number | null | undefined) {
  return useQuery({
    queryKey: ['utilities', 'breeds-by-species', speciesId],
    queryFn: ({ signal }) => orEmpty(api.get<NamedItem[]>(`utilities/breeds-by-species/${speciesId}`, { signal }), 'breeds'),
    enabled: Boolean(speciesId),
    staleTime: Infinity,
  });
}

export function useCreatePet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pet: PetRegistration) => api.post<CreatedPet>('Pet/create-pet', pet),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: userPetsKey }),
  });
}

export function useUpdatePet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pet: PetProfile) => api.put<Pet>('Pet/pet-profile', pet),
    onSuccess: (saved) => {
      queryClient.setQueryData(petKey(saved.id), saved);
      return queryClient.invalidateQueries({ queryKey: userPetsKey });
    },
  });
}

/** Asks for the address that upgrades the pet's plan to lifetime (spec 4, plan selection). */
/** Starts the lifetime upgrade and leaves for its checkout. */
export function useUpgradeToLifetime() {
  return useMutation({
    mutationFn: (petId: number) => api.post<{ location: string }>(`checkout/upgrade-subscription/${petId}`),
    onSuccess: ({ location }) => window.location.assign(location),
  });
}
