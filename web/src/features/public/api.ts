import type { LegalDocument, LegalDocumentName, MicrochipLookup, PublicProfile } from '@petreg/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

/** Asks whether a (normalised) chip number is registered. */
export function useMicrochipLookup() {
  return useMutation({
    mutationFn: (chipId: string) => api.get<MicrochipLookup>(`utilities/microchip-lookup?id=${encodeURIComponent(chipId)}`),
  });
}

/** The public profile of a pet, by its public id. */
export function usePublicProfile(publicId: string) {
  return useQuery({
    queryKey: ['pet', 'pet-profiles', publicId],
    queryFn: ({ signal }) => api.get<PublicProfile>(`pet/pet-profiles/${encodeURIComponent(publicId)}`, { signal }),
  });
}

/** The public id of the pet a short link names. */
export function useShortLinkTarget(code: string) {
  return useQuery({
    queryKey: ['pet', 'short-url-details', code],
    queryFn: ({ signal }) => api.get<string>(`pet/short-url-details/${encodeURIComponent(code)}`, { signal }),
  });
}

/** The privacy policy or terms of service, as the operator wrote them. */
export function useLegalDocument(name: LegalDocumentName) {
  return useQuery({
    queryKey: ['utilities', 'legal', name],
    queryFn: ({ signal }) => api.get<LegalDocument>(`utilities/legal/${name}`, { signal }),
    staleTime: Infinity,
  });
}
