import type { ChangePasswordInput, ConfirmedEmail, profileSchema, User, UserState } from '@petreg/contract';
import { useMutation, useQuery } from '@tanstack/react-query';
import type { z } from 'zod';
import { api } from '../../app/api';

export const currentUserKey = ['Users', 'current-user'] as const;

export function useCurrentUser() {
  return useQuery({
    queryKey: currentUserKey,
    queryFn: ({ signal }) => api.get<User>('Users/current-user', { signal }),
  });
}

export function useStates() {
  return useQuery({
    queryKey: ['utilities', 'states'],
    queryFn: ({ signal }) => api.get<UserState[]>('utilities/states', { signal }),
    staleTime: Infinity,
  });
}

export type ProfileUpdate = z.output<typeof profileSchema>;

export function useUpdateProfile(userId: number) {
  return useMutation({ mutationFn: (profile: ProfileUpdate) => api.put<User>(`Users/${userId}`, profile) });
}

export function useChangePassword() {
  return useMutation({
    mutationFn: (input: ChangePasswordInput) => api.post<boolean>('Users/ChangeUserPassword', input),
  });
}

/** Follows the link mailed to an address (at sign-up, or a new one); anyone holding the link may, signed in or not. */
export function useConfirmEmail() {
  return useMutation({ mutationFn: (token: string) => api.post<ConfirmedEmail>('Users/confirm-email', { token }) });
}

/** Mails the signed-in owner a new link confirming their address. */
export function useResendEmailConfirmation() {
  return useMutation({ mutationFn: () => api.post<boolean>('Users/resend-email-confirmation', {}) });
}

/** Texts a new code to the owner's mobile number (3 an hour). */
export function useSendPhoneCode() {
  return useMutation({ mutationFn: () => api.post<boolean>('Users/send-phone-code', {}) });
}

/** The code texted to the owner's mobile number: the answer is the user, the number verified. */
export function useVerifyPhone() {
  return useMutation({ mutationFn: (code: string) => api.post<User>('Users/verify-phone', { code }) });
}
