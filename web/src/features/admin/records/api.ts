import type {
  AdminPet,
  AdminPetSupport,
  AdminPetUpdate,
  AdminUser,
  AdminUserUpdate,
  BackupContact,
  PetHoldInput,
  PetTransfer,
  ProtectedRecordUpdate,
  TransferPetInput,
} from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from '../../../app/api';

const petRecordKey = (petId: number) => ['admin', 'user-pet', petId] as const;
const userRecordKey = (userId: number) => ['admin', 'pet-user', userId] as const;

/** GET admin/user-pet/{petId}: the pet with its chips, plan and owner id. */
export function useAdminPet(petId: number) {
  return useQuery({ queryKey: petRecordKey(petId), queryFn: ({ signal }) => api.get<AdminPet>(`admin/user-pet/${petId}`, { signal }) });
}

/** GET admin/pet-support/{petId}: lost status, backup contacts, vets, payments and the last e-mails to the owner. */
export function useAdminPetSupport(petId: number) {
  return useQuery({ queryKey: ['admin', 'pet-support', petId], queryFn: ({ signal }) => api.get<AdminPetSupport>(`admin/pet-support/${petId}`, { signal }) });
}

/** GET admin/pet-user/{userId}: the owner, once the pet names them. */
export function useAdminUser(userId: number | undefined) {
  return useQuery({
    queryKey: userRecordKey(userId ?? 0),
    queryFn: ({ signal }) => api.get<AdminUser>(`admin/pet-user/${userId}`, { signal }),
    enabled: userId !== undefined,
  });
}

export function useUpdateAdminUser(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (user: AdminUserUpdate) => api.put<AdminUser>(`admin/update-user/${userId}`, user),
    onSuccess: (saved) => queryClient.setQueryData(userRecordKey(userId), saved),
  });
}

/** PUT admin/protected-record/{userId}: sets or clears the owner's protected-record flag, with the reason. */
export function useSetRecordProtection(userId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (change: ProtectedRecordUpdate) => api.put<AdminUser>(`admin/protected-record/${userId}`, change),
    onSuccess: (saved) => queryClient.setQueryData(userRecordKey(userId), saved),
  });
}

export function useUpdateAdminPet(petId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (pet: AdminPetUpdate) => api.put<AdminPet>(`admin/update-pet/${petId}`, pet),
    onSuccess: (saved) => queryClient.setQueryData(petRecordKey(petId), saved),
  });
}

/** The pet moves to another owner: the page reads the pet again, and with it the new owner and what support sees. */
export function useTransferPet(petId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (transfer: TransferPetInput) => api.post<PetTransfer>(`admin/transfer-pet/${petId}`, transfer),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: ['admin', 'pet-support', petId] });
      return queryClient.invalidateQueries({ queryKey: petRecordKey(petId) });
    },
  });
}

export function useRemovePet(petId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.get<{ id: number }>(`admin/remove-pet/${petId}`),
    onSuccess: () => queryClient.removeQueries({ queryKey: petRecordKey(petId) }),
  });
}

/** PUT/DELETE admin/pet-hold/{petId}: the dispute hold set with its reason, or lifted; the record shows it. */
export function useTransferHold(petId: number) {
  const queryClient = useQueryClient();
  const onSuccess = () => queryClient.invalidateQueries({ queryKey: petRecordKey(petId) });
  return {
    set: useMutation({ mutationFn: (hold: PetHoldInput) => api.put<{ message: string }>(`admin/pet-hold/${petId}`, hold), onSuccess }),
    lift: useMutation({ mutationFn: () => api.delete<{ message: string }>(`admin/pet-hold/${petId}`), onSuccess }),
  };
}

/** POST admin/backup-contact/{id}/resend-confirmation: texts an owner's backup contact the confirmation request again. */
export function useAdminResendContactConfirmation(petId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contactId: number) => api.post<BackupContact>(`admin/backup-contact/${contactId}/resend-confirmation`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: ['admin', 'pet-support', petId] }),
  });
}
