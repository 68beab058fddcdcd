import type { PublicSettings } from '@petreg/contract';
import { useQuery } from '@tanstack/react-query';
import { api } from './api';

export const publicSettingsKey = ['utilities', 'settings'];

/** The portal's public settings (support line, sign-in providers, upsells), read once per visit. */
export function usePublicSettings() {
  return useQuery({
    queryKey: publicSettingsKey,
    queryFn: ({ signal }) => api.get<PublicSettings>('utilities/settings', { signal }),
    staleTime: Infinity,
  });
}

/** The support line and company address; undefined until the settings arrive. */
export function useSupportContact() {
  return usePublicSettings().data?.support;
}
