import { describe, expect, it } from 'vitest';
import {
  changePasswordSchema,
  profileSchema,
  resetPasswordFormSchema,
  signInSchema,
  signUpSchema,
} from './account.js';
import { messages } from './messages.js';

/** The first message the schema gives for each field, as a form shows it. */
function firstErrors(result: { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } }) {
  const errors: Record<string, string> = {};
  for (const issue of result.error?.issues ?? []) errors[issue.path.join('.')] ??= issue.message;
  return errors;
}

const signUp = { firstName: 'Jo', lastName: 'Li', email: 'jo@example.com', phoneNumber: '415 555 2671', password: 'Abcdef1!' };

describe('password strength rule', () => {
  it.each(['Abcdef1!', 'Zz9?zzzz', 'PASSword1@', 'aB3$aB3$aB3$'])('accepts %s', (password) => {
    expect(signUpSchema.safeParse({ ...signUp, password }).success).toBe(true);
  });

  it.each([
    ['Abcde1!', 'seven characters'],
    ['abcdef1!', 'no uppercase'],
    ['ABCDEF1!', 'no lowercase'],
    ['Abcdefg!', 'no digit'],
    ['Abcdefg1', 'no special character'],
    ['Abcdef1~', 'a special character outside ! @ # $ % ^ & * ?'],
  ])('refuses %s (%s)', (password) => {
    expect(firstErrors(signUpSchema.safeParse({ ...signUp, password }))).toEqual({ password: messages.passwordWeak });
  });
});

describe('sign-up', () => {
  it.each([
    [{ email: undefined }, 'email', messages.emailRequired],
    [{ email: '' }, 'email', messages.emailRequired],
    [{ email: 'jo@' }, 'email', messages.emailInvalid],
    [{ email: `${'j'.repeat(244)}@example.com` }, 'email', messages.emailTooLong],
    [{ firstName: '' }, 'firstName', messages.firstNameRequiredSignUp],
    [{ lastName: '' }, 'lastName', messages.lastNameRequiredSignUp],
    [{ lastName: 'x'.repeat(256) }, 'lastName', messages.lastNameTooLong],
    [{ phoneNumber: '' }, 'phoneNumber', messages.phoneRequired],
    [{ phoneNumber: '1'.repeat(20) }, 'phoneNumber', messages.phoneTooLong],
    [{ phoneNumber: '555-0000' }, 'phoneNumber', messages.phoneInvalid],
    [{ password: '' }, 'password', messages.passwordRequired],
  ])('%j gives the spec message', (override, field, message) => {
    expect(firstErrors(signUpSchema.safeParse({ ...signUp, ...override }))).toEqual({ [field]: message });
  });

  it('accepts admin@localhost as an e-mail, as browsers do', () => {
    expect(signInSchema.safeParse({ email: 'admin@localhost', password: 'x' }).success).toBe(true);
  });

  it('trims the e-mail', () => {
    expect(signUpSchema.parse({ ...signUp, email: '  jo@example.com ' }).email).toBe('jo@example.com');
  });
});

describe('reset password form', () => {
  it('needs both fields and equal passwords', () => {
    expect(firstErrors(resetPasswordFormSchema.safeParse({ password: '', passwordConfirm: '' }))).toEqual({
      password: messages.passwordRequired,
      passwordConfirm: messages.passwordRequired,
    });
    expect(firstErrors(resetPasswordFormSchema.safeParse({ password: 'Abcdef1!', passwordConfirm: 'Abcdef1?' }))).toEqual({
      passwordConfirm: messages.passwordsMustMatch,
    });
  });
});

describe('change password', () => {
  it('checks length, strength and the confirmation', () => {
    const base = { currentPassword: 'old', newPassword: 'Abcdef1!', confirmPassword: 'Abcdef1!' };
    expect(changePasswordSchema.safeParse(base).success).toBe(true);
    expect(firstErrors(changePasswordSchema.safeParse({ ...base, currentPassword: '' }))).toEqual({ currentPassword: messages.passwordRequired });
    expect(firstErrors(changePasswordSchema.safeParse({ ...base, newPassword: 'A1!a'.repeat(64), confirmPassword: 'A1!a'.repeat(64) }))).toEqual({
      newPassword: messages.passwordTooLong,
      confirmPassword: messages.passwordTooLong,
    });
    expect(firstErrors(changePasswordSchema.safeParse({ ...base, confirmPassword: 'Abcdef1?' }))).toEqual({
      confirmPassword: messages.passwordsMustMatch,
    });
  });
});

describe('profile', () => {
  const profile = { firstName: 'Jo', lastName: 'Li', email: 'jo@example.com' };

  it('requires names of at least 2 characters and a valid e-mail; the rest is optional', () => {
    expect(profileSchema.parse(profile)).toMatchObject({ phoneNumber: null, address1: null, stateId: null, notifyByEmail: false });
    expect(firstErrors(profileSchema.safeParse({ ...profile, firstName: '', lastName: 'L', email: '' }))).toEqual({
      firstName: messages.firstNameRequired,
      lastName: messages.lastNameMin,
      email: messages.emailRequired,
    });
    expect(firstErrors(profileSchema.safeParse({ ...profile, firstName: 'J' }))).toEqual({ firstName: messages.firstNameMin });
  });
});
