import type { FoundReportDetail, FoundReportList, FoundReportUnread, SharePhoneInput } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { accessToken, api, ApiError } from '../../app/api';

const inboxKey = ['found-reports'] as const;
const listKey = [...inboxKey, 'list'] as const;
const unreadKey = [...inboxKey, 'unread-count'] as const;
const reportKey = (id: number) => [...inboxKey, 'report', id] as const;

/** A finder waits for an answer: the unread count is asked for again every minute while the portal is open. */
const UNREAD_EVERY_MS = 60_000;

/** The owner's reports, newest first, with the unread count. */
export function useFoundReports() {
  return useQuery({
    queryKey: listKey,
    queryFn: ({ signal }) => api.get<FoundReportList>('found-reports', { signal }),
    refetchInterval: UNREAD_EVERY_MS,
  });
}

/** How many reports the owner has not opened: the navigation's badge. */
export function useUnreadFoundReports(enabled: boolean) {
  return useQuery({
    queryKey: unreadKey,
    queryFn: ({ signal }) => api.get<FoundReportUnread>('found-reports/unread-count', { signal }),
    refetchInterval: UNREAD_EVERY_MS,
    enabled,
  });
}

/** One report; reading it marks it opened, so the inbox and the badge are asked for again. */
export function useFoundReport(id: number) {
  const queryClient = useQueryClient();
  return useQuery({
    queryKey: reportKey(id),
    queryFn: async ({ signal }) => {
      const report = await api.get<FoundReportDetail>(`found-reports/${id}`, { signal });
      void queryClient.invalidateQueries({ queryKey: listKey });
      void queryClient.invalidateQueries({ queryKey: unreadKey });
      return report;
    },
    retry: false,
  });
}

/** An action on a report that answers the report as it now stands. */
function useReportAction<Input>(id: number, call: (input: Input) => Promise<FoundReportDetail>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: (report) => queryClient.setQueryData(reportKey(id), report),
    onSettled: () => queryClient.invalidateQueries({ queryKey: inboxKey }),
  });
}

export const useSharePhone = (id: number) =>
  useReportAction(id, (input: SharePhoneInput) => api.post<FoundReportDetail>(`found-reports/${id}/share-phone`, input));

export const useMarkReunited = (id: number) => useReportAction(id, () => api.post<FoundReportDetail>(`found-reports/${id}/reunited`));

/**
 * The finder's photo, which only the signed-in owner may fetch (an <img> cannot send the bearer
 * token): fetched as a blob, shown through an object URL released when the page leaves it.
 */
export function useFinderPhoto(url: string | null): string | null {
  const photo = useQuery({
    queryKey: [...inboxKey, 'photo', url],
    queryFn: async ({ signal }) => {
      const token = accessToken.get();
      const response = await fetch(url!, { headers: token ? { Authorization: `Bearer ${token}` } : {}, signal });
      if (!response.ok) throw new ApiError(response.status, []);
      return response.blob();
    },
    enabled: url !== null,
    staleTime: Infinity,
    retry: false,
  });
  const src = useMemo(() => (photo.data ? URL.createObjectURL(photo.data) : null), [photo.data]);
  useEffect(() => () => (src ? URL.revokeObjectURL(src) : undefined), [src]);
  return src;
}
