import type { AdminSite, AdminSiteFilter, AdminSiteInput, AdminSitesPage, RemovedSamples, SiteImportResult } from '@petreg/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

const sitesKey = ['admin', 'sites'] as const;

/** One page of the directory, matching the search and filter; the previous page stays on screen while the next loads. */
export function useAdminSites(query: string, filter: AdminSiteFilter, page: number) {
  return useQuery({
    queryKey: [...sitesKey, query, filter, page],
    queryFn: ({ signal }) => api.get<AdminSitesPage>(`admin/sites?${new URLSearchParams({ query, filter, page: String(page) })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** Adds a site, or changes the one with the given id. */
export function useSaveSite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ id, site }: { id: number | null; site: AdminSiteInput }) =>
      id === null ? api.post<{ id: number }>('admin/sites', site) : api.put<{ id: number }>(`admin/sites/${id}`, site),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sitesKey }),
  });
}

/** The form's fields of a listed site: what a change sends back along with what it changes. */
export function siteInput(site: AdminSite): AdminSiteInput {
  return {
    name: site.name,
    kind: site.kind,
    email: site.email,
    phoneNumber: site.phoneNumber,
    address1: site.address1,
    city: site.city,
    state: site.state,
    zipCode: site.zipCode ?? '',
    url: site.url,
    receivesAlerts: site.receivesAlerts,
    isActive: site.isActive,
  };
}

export function useImportSites() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => {
      const form = new FormData();
      form.append('file', file);
      return api.upload<SiteImportResult>('admin/sites/import', form);
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: sitesKey }),
  });
}

export function useRemoveSamples() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<RemovedSamples>('admin/sites/remove-samples'),
    onSettled: () => queryClient.invalidateQueries({ queryKey: sitesKey }),
  });
}
