import { z } from 'zod';
import { limits } from './constants.js';
import { messages } from './messages.js';
import { isValidPhone } from './phone.js';

/** One uppercase, one lowercase, one digit and one of ! @ # $ % ^ & * ? — spec section 5. */
const strongPassword = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*?]).{8,}$/;

/** Required, valid, at most 255 characters: the e-mail rule every account form shares. */
export const emailField = z
  .string({ error: messages.emailRequired })
  .trim()
  .min(1, { error: messages.emailRequired, abort: true })
  .max(limits.emailMax, { error: messages.emailTooLong, abort: true })
  // The HTML5 rule browsers use for type=email; it also accepts the default admin@localhost.
  .pipe(z.email({ error: messages.emailInvalid, pattern: z.regexes.html5Email }));

/** The strength rule of sign-up, reset and change password. */
export const newPasswordField = z
  .string({ error: messages.passwordRequired })
  .min(1, { error: messages.passwordRequired, abort: true })
  .max(limits.passwordMax, { error: messages.passwordTooLong, abort: true })
  .regex(strongPassword, { error: messages.passwordWeak });

const passwordField = z
  .string({ error: messages.passwordRequired })
  .min(1, { error: messages.passwordRequired, abort: true })
  .max(limits.passwordMax, { error: messages.passwordTooLong });

const mobilePhoneField = z
  .string({ error: messages.phoneRequired })
  .trim()
  .min(1, { error: messages.phoneRequired, abort: true })
  .max(limits.phoneMax, { error: messages.phoneTooLong, abort: true })
  .refine(isValidPhone, { error: messages.phoneInvalid });

/** Profile-form names: required and at least 2 characters. */
function personName(required: string, min: string) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .min(limits.personNameMin, { error: min })
    .max(255);
}

export const signUpSchema = z.object({
  firstName: z
    .string({ error: messages.firstNameRequiredSignUp })
    .trim()
    .min(1, { error: messages.firstNameRequiredSignUp })
    .max(255),
  lastName: z
    .string({ error: messages.lastNameRequiredSignUp })
    .trim()
    .min(1, { error: messages.lastNameRequiredSignUp, abort: true })
    .max(255, { error: messages.lastNameTooLong }),
  email: emailField,
  phoneNumber: mobilePhoneField,
  password: newPasswordField,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signUpEmailSchema = z.object({ email: emailField });

export const signInSchema = z.object({
  email: emailField,
  password: passwordField,
  remember: z.boolean().optional(),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const forgotPasswordSchema = z.object({ email: emailField });

/** The reset-password page: both fields required, the new one strong, the two equal. */
export const resetPasswordFormSchema = z
  .object({ password: newPasswordField, passwordConfirm: passwordField })
  .refine((v) => v.password === v.passwordConfirm, {
    error: messages.passwordsMustMatch,
    path: ['passwordConfirm'],
  });

export const setPasswordByTokenSchema = z.object({
  email: emailField,
  token: z.string().trim().min(1, { error: messages.resetLinkInvalid }).max(200),
  password: newPasswordField,
});
export type SetPasswordByTokenInput = z.infer<typeof setPasswordByTokenSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: passwordField,
    newPassword: newPasswordField,
    confirmPassword: passwordField,
  })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: messages.passwordsMustMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

const optionalText = (max: number) =>
  z
    .string()
    .trim()
    .max(max)
    .nullish()
    .transform((v) => (v ? v : null));

export const profileSchema = z.object({
  firstName: personName(messages.firstNameRequired, messages.firstNameMin),
  lastName: personName(messages.lastNameRequired, messages.lastNameMin),
  email: emailField,
  phoneNumber: z
    .string()
    .trim()
    .max(limits.phoneMax, { error: messages.phoneTooLong, abort: true })
    .refine((v) => v === '' || isValidPhone(v), { error: messages.phoneInvalid })
    .nullish()
    .transform((v) => (v ? v : null)),
  address1: optionalText(255),
  address2: optionalText(255),
  city: optionalText(100),
  stateId: z.number().int().positive().nullish().transform((v) => v ?? null),
  zipcode: optionalText(10),
  notifyByEmail: z.boolean().default(false),
  notifyBySms: z.boolean().default(false),
  /** A data URL for a new photo, the stored name to keep it, empty to remove it; absent keeps it. */
  photo: z.string().max(15_000_000).nullish(),
  /** Required when the e-mail changes: a stolen session alone must not move the account to another address. */
  currentPassword: z.string().max(limits.passwordMax, { error: messages.passwordTooLong }).optional(),
});
export type ProfileInput = z.input<typeof profileSchema>;

/** E-mails are one account's whatever their letter case. */
export const isSameEmail = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

/** The profile form of an account whose e-mail is `currentEmail`: a new e-mail asks for the password. */
export const profileFormSchema = (currentEmail: string) =>
  profileSchema.refine((v) => isSameEmail(v.email, currentEmail) || Boolean(v.currentPassword), {
    error: messages.currentPasswordRequired,
    path: ['currentPassword'],
  });

/** `POST Users/confirm-email`: the token of the link mailed to the new address. */
export const confirmEmailSchema = z.object({
  token: z.string().trim().min(1, { error: messages.emailChangeLinkInvalid }).max(200, { error: messages.emailChangeLinkInvalid }),
});

/** `POST api/auth/user/update`: the user's own UI settings and shortcuts. */
export const userSettingsSchema = z.object({
  data: z.object({
    settings: z.record(z.string(), z.unknown()).default({}),
    shortcuts: z.array(z.string().max(100)).max(50).default([]),
  }),
});

export const socialLoginSchema = z.object({
  /** Google: the ID token from Google Identity Services; Facebook: the user access token. */
  token: z.string().min(10).max(5000),
});
