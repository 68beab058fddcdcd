import type { AuthResult, EmailExists, SetPasswordByTokenInput, SignInInput, SignUpInput } from '@petreg/contract';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../app/api';

/** Answers `{ id: true }` when an account uses the e-mail, null when it is free. */
export function useEmailExistsCheck() {
  return useMutation({
    mutationFn: (email: string) =>
      api.get<EmailExists>(`Users/email-exists/?email=${encodeURIComponent(email)}`),
  });
}

export function useSignUpRequest() {
  return useMutation({ mutationFn: (input: SignUpInput) => api.post<AuthResult>('Users/signup', input) });
}

export function useSignInRequest() {
  return useMutation({ mutationFn: (input: SignInInput) => api.post<AuthResult>('Users/login', input) });
}

export type SocialProvider = 'google' | 'facebook';

export function useSocialSignInRequest() {
  return useMutation({
    mutationFn: ({ provider, token }: { provider: SocialProvider; token: string }) =>
      api.post<AuthResult>(`Users/${provider}-login`, { token }),
  });
}

export function useForgotPasswordRequest() {
  return useMutation({ mutationFn: (email: string) => api.post<boolean>('Users/forgot-password', { email }) });
}

export function useSetPasswordByTokenRequest() {
  return useMutation({
    mutationFn: (input: SetPasswordByTokenInput) => api.post<boolean>('Users/set-password-by-token', input),
  });
}
