import type { SignUpInput } from '@petreg/contract';

/** What a new owner typed on the sign-up form, kept for the back-navigation rule of spec 4 (never the password). */
export type SignUpData = Omit<SignUpInput, 'password'>;

const key = 'signUpData';

export function saveSignUpData(data: SignUpData): void {
  sessionStorage.setItem(key, JSON.stringify(data));
}

export function readSignUpData(): SignUpData | null {
  try {
    const stored = sessionStorage.getItem(key);
    return stored ? (JSON.parse(stored) as SignUpData) : null;
  } catch {
    return null;
  }
}
