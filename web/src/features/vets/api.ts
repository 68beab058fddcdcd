import type { AddSiteToPetsInput, Site, SitePetLink, SiteSearchPage, SiteWithDetail } from '@petreg/contract';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orEmpty } from '../../app/api';

/** Every list that says which vet cares for which pet: refreshed together after a link changes. */
const linksKey = ['site', 'links'] as const;
const userVetsKey = [...linksKey, 'for-user'] as const;
const petVetsKey = (petId: number) => [...linksKey, 'sites-for-pet', petId] as const;
const vetPetLinksKey = (siteId: number) => [...linksKey, 'sites-for-user-pets', siteId] as const;

/** Vet search (spec 2.5), a page at a time (Show more asks for the next); off until there is something to search for. */
export function useVetSearch(query: string) {
  return useInfiniteQuery({
    queryKey: ['site', 'search', query],
    queryFn: ({ signal, pageParam }) =>
      api.get<SiteSearchPage>(`site/search?${new URLSearchParams({ query, ...(pageParam && { next: pageParam }) })}`, { signal }),
    initialPageParam: '',
    getNextPageParam: (last) => last.next ?? undefined,
    enabled: query.length > 0,
    // A directory does not change while the owner compares results, nor on the way back from a vet.
    staleTime: 5 * 60_000,
  });
}

/**
 * Adds a search result to the directory, or finds it there (spec 4, vet add). No payload: the
 * server reads the place itself and trusts none of a browser's details.
 */
export function useAddVetByPlace() {
  return useMutation({
    mutationFn: (placeId: string) => api.post<Site>(`site/ByGoogleId/${encodeURIComponent(placeId)}`),
  });
}

/** The vets of all the owner's pets: the dashboard's Your Vets (spec 2.3). */
export function useUserVets() {
  return useQuery({
    queryKey: userVetsKey,
    queryFn: ({ signal }) => orEmpty(api.get<Site[]>('site/for-user', { signal }), 'vets'),
  });
}

export function usePetVets(petId: number) {
  return useQuery({
    queryKey: petVetsKey(petId),
    queryFn: ({ signal }) => orEmpty(api.get<Site[]>(`site/sites-for-pet/${petId}`, { signal }), 'vets of the pet'),
  });
}

/** One vet with its hours, reviews and location. */
export function useVet(id: number) {
  return useQuery({
    queryKey: ['site', id],
    queryFn: ({ signal }) => api.get<SiteWithDetail>(`site/${id}`, { signal }),
  });
}

/** Which of the owner's pets this vet already cares for. */
export function useVetPetLinks(siteId: number) {
  return useQuery({
    queryKey: vetPetLinksKey(siteId),
    queryFn: ({ signal }) => orEmpty(api.get<SitePetLink[]>(`site/sites-for-user-pets/${siteId}`, { signal }), 'links of the vet'),
  });
}

export function useAddVetToPets() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: AddSiteToPetsInput) => api.post<SitePetLink[]>('site/add-site-to-pets', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: linksKey }),
  });
}

export function useRemoveVetFromPet() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (link: { petId: number; siteId: number }) => api.delete<boolean>('site/RemoveFromPet', link),
    onSettled: () => queryClient.invalidateQueries({ queryKey: linksKey }),
  });
}
