import type { FoundReport, FoundReportSent, FoundReportTarget } from '@petreg/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../app/api';

/** How the finder's form was opened: from a pet's profile (its public id) or from a chip number. */
export type FinderOpening = { pet: string } | { chip: string };

/** Whether the pet exists, and the owner's question; never anything about the owner. */
export function useFoundReportTarget(opening: FinderOpening) {
  const query = new URLSearchParams(opening).toString();
  return useQuery({
    queryKey: ['public', 'found-report', query],
    queryFn: ({ signal }) => api.get<FoundReportTarget>(`public/found-report?${query}`, { signal }),
    retry: false,
  });
}

/** Sends the finder's report; the answer is the sentence saying who was told. */
export function useSendFoundReport() {
  return useMutation({ mutationFn: (report: FoundReport) => api.post<FoundReportSent>('public/found-report', report) });
}
