import type { AdminChipMatch, AdminUserSearchPage, CardTransactionRow } from '@petreg/contract';
import { keepPreviousData, useMutation, useQuery } from '@tanstack/react-query';
import { api } from '../../../app/api';

/** GET admin/pet-by-microchip: the pet a chip number leads to (404 "No Records found" when none). */
export function useChipSearch() {
  return useMutation({
    mutationFn: (chip: string) => api.get<AdminChipMatch>(`admin/pet-by-microchip?${new URLSearchParams({ chip })}`),
  });
}

/** POST Users/SearchUsersByAdmin: one page of the accounts a term finds; the previous page stays on screen while the next loads. */
export function useUserSearch(searchTerm: string, pageNumber: number) {
  return useQuery({
    queryKey: ['admin', 'users', searchTerm, pageNumber],
    queryFn: ({ signal }) => api.post<AdminUserSearchPage>('Users/SearchUsersByAdmin', { searchTerm, pageNumber }, { signal }),
    placeholderData: keepPreviousData,
  });
}

/** GET admin/stripe-transactions: card payments whose card ends in these 4 digits. */
export function useCardPayments(key: string) {
  return useQuery({
    queryKey: ['admin', 'card-payments', key],
    queryFn: ({ signal }) => api.get<CardTransactionRow[]>(`admin/stripe-transactions/?${new URLSearchParams({ key })}`, { signal }),
  });
}
