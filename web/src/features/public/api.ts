import type { LegalDocument, LegalDocumentName, MicrochipLookup, PublicProfile } from '@petreg/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api, ApiError } from '../../app/api';

/** A finder's page reads fresh answers; one rendered on the server is not asked for again as it hydrates. */
const FRESH_MS = 60_000;

/** The answer, or null when the server does not know what was asked for (404). */
async function orUnknown<T>(request: Promise<T>): Promise<T | null> {
  try {
    return await request;
  } catch (error) {
    if (error instanceof ApiError && error.status === 404) return null;
    throw error;
  }
}

export const publicProfileKey = (publicId: string) => ['pet', 'pet-profiles', publicId];
export const shortLinkTargetKey = (code: string) => ['pet', 'short-url-details', code];

/** Asks whether a (normalised) chip number is registered. */
export function useMicrochipLookup() {
  return useMutation({
    mutationFn: (chipId: string) => api.get<MicrochipLookup>(`utilities/microchip-lookup?id=${encodeURIComponent(chipId)}`),
  });
}

/** The public profile of a pet, by its public id; null when no such pet shows. */
export function usePublicProfile(publicId: string) {
  return useQuery({
    queryKey: publicProfileKey(publicId),
    queryFn: ({ signal }) => orUnknown(api.get<PublicProfile>(`pet/pet-profiles/${encodeURIComponent(publicId)}`, { signal })),
    staleTime: FRESH_MS,
  });
}

/** The public id of the pet a short link names; null when it leads nowhere. */
export function useShortLinkTarget(code: string) {
  return useQuery({
    queryKey: shortLinkTargetKey(code),
    queryFn: ({ signal }) => orUnknown(api.get<string>(`pet/short-url-details/${encodeURIComponent(code)}`, { signal })),
    staleTime: FRESH_MS,
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
