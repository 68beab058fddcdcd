import type { MailLogEntry, MailLogMessage, MailLogPage, MailQueue } from '@petreg/contract';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';

const mailKey = ['admin', 'mail'] as const;

/** One page of the mail log, newest first, matching the search; the previous page stays on screen while the next loads. */
export function useMailLog(query: string, page: number) {
  return useQuery({
    queryKey: [...mailKey, 'list', query, page],
    queryFn: ({ signal }) => api.get<MailLogPage>(`admin/mail?${new URLSearchParams({ query, page: String(page) })}`, { signal }),
    placeholderData: keepPreviousData,
  });
}

export function useMailMessage(queue: MailQueue, id: number) {
  return useQuery({
    queryKey: [...mailKey, queue, id],
    queryFn: ({ signal }) => api.get<MailLogMessage>(`admin/mail/${queue}/${id}`, { signal }),
  });
}

export function useResendMail() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ queue, id }: Pick<MailLogEntry, 'queue' | 'id'>) => api.post<MailLogEntry>(`admin/mail/${queue}/${id}/resend`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: mailKey }),
  });
}
