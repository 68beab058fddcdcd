import { paths, type SignUpInput } from '@petreg/contract';

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

/** Once the first pet is registered there is no sign-up left to step back out of. */
export function clearSignUpData(): void {
  sessionStorage.removeItem(key);
}

/** Navigation state of a step back out of the sign-up flow (spec 4). */
export interface LeavingSignUp {
  leavingSignUp: true;
}

export function isLeavingSignUp(state: unknown): state is LeavingSignUp {
  return typeof state === 'object' && state !== null && 'leavingSignUp' in state && state.leavingSignUp === true;
}

/** Spec 4: back out of the sign-up flow lands on the details form with its e-mail, or on sign-up. */
export function signUpReturnPath(): string {
  const stored = readSignUpData();
  return stored ? `${paths.signUpForm}?email=${encodeURIComponent(stored.email)}` : paths.signUp;
}
