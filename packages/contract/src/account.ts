import { z } from 'zod';
import { imageDataUrlMax, limits } from './constants.js';
import { idField, jsonObjectField, requestObject, textField } from './fields.js';
import { messages } from './messages.js';
import { isValidPhone } from './phone.js';

/** One uppercase, one lowercase, one digit and one of ! @ # $ % ^ & * ? — spec section 5. */
const strongPassword = /^(?=.*[a-z])(?=.*[A-Z])(?=.*\d)(?=.*[!@#$%^&*?]).{8,}$/;

/** Required, valid, at most 255 characters: the e-mail rule every account form shares. */
export const emailField = textField(limits.emailMax, messages.emailTooLong, messages.emailRequired)
  .trim()
  .min(1, { error: messages.emailRequired, abort: true })
  // The HTML5 rule browsers use for type=email; it also accepts the default admin@localhost.
  .pipe(z.email({ error: messages.emailInvalid, pattern: z.regexes.html5Email }));

/** The strength rule of sign-up, reset and change password. */
export const newPasswordField = textField(limits.passwordMax, messages.passwordTooLong, messages.passwordRequired, 'secret')
  .min(1, { error: messages.passwordRequired, abort: true })
  .regex(strongPassword, { error: messages.passwordWeak });

const passwordField = textField(limits.passwordMax, messages.passwordTooLong, messages.passwordRequired, 'secret').min(1, {
  error: messages.passwordRequired,
});

const mobilePhoneField = textField(limits.phoneMax, messages.phoneTooLong, messages.phoneRequired)
  .trim()
  .min(1, { error: messages.phoneRequired, abort: true })
  .refine(isValidPhone, { error: messages.phoneInvalid });

/** Profile-form names: required and at least 2 characters. */
function personName(required: string, min: string, tooLong: string) {
  return textField(255, tooLong, required)
    .trim()
    .min(1, { error: required, abort: true })
    .min(limits.personNameMin, { error: min });
}

export const signUpSchema = requestObject({
  firstName: textField(255, messages.firstNameTooLong, messages.firstNameRequiredSignUp)
    .trim()
    .min(1, { error: messages.firstNameRequiredSignUp }),
  lastName: textField(255, messages.lastNameTooLong, messages.lastNameRequiredSignUp)
    .trim()
    .min(1, { error: messages.lastNameRequiredSignUp, abort: true }),
  email: emailField,
  phoneNumber: mobilePhoneField,
  password: newPasswordField,
});
export type SignUpInput = z.infer<typeof signUpSchema>;

export const signUpEmailSchema = requestObject({ email: emailField });

export const signInSchema = requestObject({
  email: emailField,
  password: passwordField,
  remember: z.boolean({ error: messages.invalidRequest }).optional(),
});
export type SignInInput = z.infer<typeof signInSchema>;

export const forgotPasswordSchema = requestObject({ email: emailField });

/** The new password typed twice alike, or the confirmation says so. */
function passwordsMatch<S extends z.ZodType<{ password: string; passwordConfirm: string }>>(schema: S): S {
  return schema.refine((v) => v.password === v.passwordConfirm, { error: messages.passwordsMustMatch, path: ['passwordConfirm'] });
}

/** The reset-password page: both fields required, the new one strong, the two equal. */
export const resetPasswordFormSchema = passwordsMatch(z.object({ password: newPasswordField, passwordConfirm: passwordField }, { error: messages.invalidRequest }));

/** What an invited owner (an account an administrator opened) gives with the first password: the profile's names and mobile phone, as sign-up asks them. */
const invitationDetails = {
  firstName: signUpSchema.shape.firstName,
  lastName: signUpSchema.shape.lastName,
  phoneNumber: mobilePhoneField,
};

/** The reset-password page opened from an invitation: the names and mobile phone, then the password twice. */
export const invitationFormSchema = passwordsMatch(
  z.object({ ...invitationDetails, password: newPasswordField, passwordConfirm: passwordField }, { error: messages.invalidRequest }),
);
export type InvitationFormInput = z.infer<typeof invitationFormSchema>;

/**
 * Sets the password a mailed link allows. The details are optional here, but an account opened
 * without names (a transfer's) takes its first password only with all three (invitationDetailsRequired).
 */
export const setPasswordByTokenSchema = requestObject({
  email: emailField,
  token: textField(200, messages.resetLinkInvalid, messages.resetLinkInvalid).trim().min(1, { error: messages.resetLinkInvalid }),
  password: newPasswordField,
  firstName: invitationDetails.firstName.optional(),
  lastName: invitationDetails.lastName.optional(),
  phoneNumber: invitationDetails.phoneNumber.optional(),
});
export type SetPasswordByTokenInput = z.infer<typeof setPasswordByTokenSchema>;

export const changePasswordSchema = z
  .object({
    currentPassword: passwordField,
    newPassword: newPasswordField,
    confirmPassword: passwordField,
  }, { error: messages.invalidRequest })
  .refine((v) => v.newPassword === v.confirmPassword, {
    error: messages.passwordsMustMatch,
    path: ['confirmPassword'],
  });
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

const optionalText = (max: number, tooLong: string) =>
  textField(max, tooLong)
    .trim()
    .nullish()
    .transform((v) => (v ? v : null));

export const profileSchema = requestObject({
  firstName: personName(messages.firstNameRequired, messages.firstNameMin, messages.firstNameTooLong),
  lastName: personName(messages.lastNameRequired, messages.lastNameMin, messages.lastNameTooLong),
  email: emailField,
  phoneNumber: textField(limits.phoneMax, messages.phoneTooLong)
    .trim()
    .refine((v) => v === '' || isValidPhone(v), { error: messages.phoneInvalid })
    .nullish()
    .transform((v) => (v ? v : null)),
  address1: optionalText(255, messages.addressTooLong),
  address2: optionalText(255, messages.addressTooLong),
  city: optionalText(100, messages.cityTooLong),
  stateId: idField(messages.stateInvalid).nullish().transform((v) => v ?? null),
  zipcode: optionalText(10, messages.zipcodeTooLong),
  notifyByEmail: z.boolean({ error: messages.invalidChoice }).default(false),
  notifyBySms: z.boolean({ error: messages.invalidChoice }).default(false),
  /** Text the owner's verified mobile when a finder reports a pet; absent keeps the choice. */
  textFoundReports: z.boolean({ error: messages.invalidChoice }).optional(),
  /** The renewal and chip scan reminders (reminderSwitches); absent keeps the choice. */
  renewalReminders: z.boolean({ error: messages.invalidChoice }).optional(),
  chipScanReminders: z.boolean({ error: messages.invalidChoice }).optional(),
  /** A data URL for a new photo, the stored name to keep it, empty to remove it; absent keeps it. */
  photo: textField(imageDataUrlMax, messages.imageTooLarge, messages.onlyImages).nullish(),
  /** Required when the e-mail changes: a stolen session alone must not move the account to another address. */
  currentPassword: textField(limits.passwordMax, messages.passwordTooLong, messages.invalidText, 'secret').optional(),
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

/** `POST Users/confirm-email`: the token of the link mailed to the address (at sign-up, or a new one). */
export const confirmEmailSchema = requestObject({
  token: textField(200, messages.emailChangeLinkInvalid, messages.emailChangeLinkInvalid)
    .trim()
    .min(1, { error: messages.emailChangeLinkInvalid }),
});

/** `POST Users/confirm-email`'s answer: whether the account moved to the address, or only confirmed its own. */
export interface ConfirmedEmail {
  changed: boolean;
}

/** `POST api/auth/user/update`: the user's own UI settings and shortcuts. */
export const userSettingsSchema = requestObject({
  data: requestObject({
    settings: jsonObjectField(8 * 1024, messages.settingsTooLarge).default({}),
    shortcuts: z
      .array(textField(100, messages.shortcutsTooMany, messages.shortcutsTooMany), { error: messages.shortcutsTooMany })
      .max(50, { error: messages.shortcutsTooMany })
      .default([]),
  }),
});

export const socialLoginSchema = requestObject({
  /** Google: the ID token from Google Identity Services; Facebook: the user access token. */
  token: textField(5000, messages.socialSignInFailed, messages.socialSignInFailed).min(10, { error: messages.socialSignInFailed }),
});

/** `POST Users/verify-phone`: the code texted to the owner's mobile number. */
export const verifyPhoneSchema = requestObject({
  code: textField(20, messages.phoneCodeInvalid, messages.phoneCodeInvalid)
    .trim()
    .regex(/^\d{6}$/, { error: messages.phoneCodeInvalid }),
});
export type VerifyPhoneInput = z.input<typeof verifyPhoneSchema>;

/** `POST public/backup-contact/confirm`: the token of the link texted to a backup contact. */
export const confirmBackupContactSchema = requestObject({
  token: textField(200, messages.backupContactLinkInvalid, messages.backupContactLinkInvalid)
    .trim()
    .min(1, { error: messages.backupContactLinkInvalid }),
});
