import type { AcceptedPetTransfer, PetTransferOffer, PetTransfers, StartPetTransferInput } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../app/api';
import { userPetsKey } from '../pets/api';

const transfersKey = ['Pet', 'transfers'] as const;

/** GET Pet/transfers: the open offers both ways. */
export function usePetTransfers() {
  return useQuery({ queryKey: transfersKey, queryFn: ({ signal }) => api.get<PetTransfers>('Pet/transfers', { signal }) });
}

/** Every answer changes the open offers; an acceptance also the pets of the account. */
function useTransferMutation<I>(call: (input: I) => Promise<{ message: string }>) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSuccess: () => Promise.all([queryClient.invalidateQueries({ queryKey: transfersKey }), queryClient.invalidateQueries({ queryKey: userPetsKey })]),
  });
}

export const useStartTransfer = (petId: number) =>
  useTransferMutation((input: StartPetTransferInput) => api.post<{ message: string }>(`Pet/${petId}/transfer`, input));

export const useCancelTransfer = () => useTransferMutation((id: number) => api.post<{ message: string }>(`Pet/transfers/${id}/cancel`));

export const useDeclineTransfer = () => useTransferMutation((id: number) => api.post<{ message: string }>(`Pet/transfers/${id}/decline`));

export const useAcceptTransfer = () =>
  useTransferMutation(({ id, shareContactInfo }: { id: number; shareContactInfo: boolean }) =>
    api.post<AcceptedPetTransfer>(`Pet/transfers/${id}/accept`, { shareContactInfo }),
  );

/** The mailed link's offer; a spent or unknown code answers 404 (not retried). */
export function useTransferOffer(token: string) {
  return useQuery({
    queryKey: ['public', 'pet-transfer', token],
    queryFn: ({ signal }) => api.get<PetTransferOffer>(`public/pet-transfer?${new URLSearchParams({ token })}`, { signal }),
    retry: false,
  });
}

export const useAcceptByLink = () =>
  useMutation({
    mutationFn: ({ token, shareContactInfo }: { token: string; shareContactInfo: boolean }) =>
      api.post<AcceptedPetTransfer>('public/pet-transfer/accept', { token, shareContactInfo }),
  });

export const useDeclineByLink = () => useMutation({ mutationFn: (token: string) => api.post<{ message: string }>('public/pet-transfer/decline', { token }) });
