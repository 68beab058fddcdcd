import type { ApiKeyEntry, ApiKeyIssue, IssuedApiKey } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../app/api';

const apiKeysKey = ['admin', 'api-keys'] as const;

/** Every key to the open lookup, newest first. */
export function useApiKeys() {
  return useQuery({ queryKey: apiKeysKey, queryFn: ({ signal }) => api.get<ApiKeyEntry[]>('admin/api-keys', { signal }) });
}

export function useIssueApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: ApiKeyIssue) => api.post<IssuedApiKey>('admin/api-keys', input),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}

export function useRevokeApiKey() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<ApiKeyEntry>(`admin/api-keys/${id}/revoke`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: apiKeysKey }),
  });
}
