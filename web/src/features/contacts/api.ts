import type { BackupContact, BackupContactInput, ContactCheck, ContactsConfirmed } from '@petreg/contract';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, orEmpty } from '../../app/api';

const contactsKey = ['Users', 'backup-contacts'] as const;

export function useBackupContacts() {
  return useQuery({
    queryKey: contactsKey,
    queryFn: ({ signal }) => orEmpty(api.get<BackupContact[]>('Users/backup-contacts', { signal }), 'backup contacts'),
  });
}

/** Creates a contact, or edits the one with the given id. */
export function useSaveBackupContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (contact: BackupContactInput) => api.post<BackupContact>('Users/backup-contact', contact),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

export function useDeleteBackupContact() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.delete<boolean>(`Users/BackupContact/${id}`),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

/** Texts the contact the confirmation request again (limited per account). */
export function useResendContactConfirmation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: number) => api.post<BackupContact>(`Users/BackupContact/${id}/resend-confirmation`, {}),
    onSettled: () => queryClient.invalidateQueries({ queryKey: contactsKey }),
  });
}

/** The contact follows the texted link, signed in or not. */
export function useConfirmBackupContact() {
  return useMutation({ mutationFn: (token: string) => api.post<boolean>('public/backup-contact/confirm', { token }) });
}

const contactCheckKey = ['Users', 'contacts-check'] as const;

/** When the owner's e-mail and phone were last confirmed, and whether the dashboard asks to check them. */
export function useContactCheck() {
  return useQuery({
    queryKey: contactCheckKey,
    queryFn: ({ signal }) => api.get<ContactCheck>('Users/contacts-check', { signal }),
  });
}

/** The owner answers "Is this still how we reach you?" from the dashboard. */
export function useConfirmContacts() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api.post<ContactCheck>('Users/contacts/confirm', {}),
    onSuccess: (check) => queryClient.setQueryData(contactCheckKey, check),
  });
}

/** The owner follows the link mailed or texted to them, signed in or not. */
export function useConfirmContactsByLink() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (token: string) => api.post<ContactsConfirmed>('public/contacts/confirm', { token }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: contactCheckKey }),
  });
}
