import { oneLine } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

/** The password-reset e-mail: plain text and HTML with the same single-use link. */
export function resetPasswordEmail(firstName: string, link: string) {
  return {
    kind: 'password-reset' as const,
    subject: 'Reset your password',
    text: `Hi ${oneLine(firstName)},\n\nWe received a request to reset the password of your pet registry account.\nOpen this link within one hour to choose a new password:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail; your password stays the same.\n`,
    html: `<p>Hi ${escapeHtml(firstName)},</p><p>We received a request to reset the password of your pet registry account. Open this link within one hour to choose a new password:</p><p><a href="${escapeHtml(link)}">Reset your password</a></p><p>If you did not ask for this, you can ignore this e-mail; your password stays the same.</p>`,
  };
}

/** Sent to the new address: the account moves there only when this link is followed. */
export function confirmEmailChangeEmail(firstName: string, link: string) {
  return {
    kind: 'email-change' as const,
    subject: 'Confirm your new email address',
    text: `Hi ${oneLine(firstName)},\n\nYou asked to use this address for your pet registry account.\nOpen this link within 24 hours to confirm it:\n\n${link}\n\nIf you did not ask for this, ignore this e-mail; the account keeps its current address.\n`,
    html: `<p>Hi ${escapeHtml(firstName)},</p><p>You asked to use this address for your pet registry account. Open this link within 24 hours to confirm it:</p><p><a href="${escapeHtml(link)}">Confirm your new email address</a></p><p>If you did not ask for this, ignore this e-mail; the account keeps its current address.</p>`,
  };
}

/** Sent at sign-up (and again on request): the link proves the owner reads this address. */
export function confirmSignUpEmail(firstName: string, link: string) {
  return {
    kind: 'email-confirmation' as const,
    subject: 'Confirm your email address',
    text: `Hi ${firstName},\n\nThank you for signing up with our pet registry.\nOpen this link within ${CONFIRMATION_DAYS} days to confirm that this address is yours:\n\n${link}\n\nIf you did not sign up, you can ignore this e-mail.\n`,
    html: `<p>Hi ${escapeHtml(firstName)},</p><p>Thank you for signing up with our pet registry. Open this link within ${CONFIRMATION_DAYS} days to confirm that this address is yours:</p><p><a href="${escapeHtml(link)}">Confirm your email address</a></p><p>If you did not sign up, you can ignore this e-mail.</p>`,
  };
}

/** How long a sign-up's confirmation link works; the owner can ask for a new one from the portal. */
export const CONFIRMATION_DAYS = 7;

/** To the current address when a change is asked for, so a stranger's request can be stopped in time. */
export function emailChangeRequestedNotice(firstName: string, newEmail: string) {
  return {
    kind: 'email-change' as const,
    subject: 'A change of your email address was requested',
    text: `Hi ${oneLine(firstName)},\n\nSomeone asked to change the email address of your pet registry account to ${newEmail}.\nThe change happens only when the link we sent to that address is opened.\n\nIf this was not you, change your password now: that cancels the request. Then contact our support.\n`,
    html: `<p>Hi ${escapeHtml(firstName)},</p><p>Someone asked to change the email address of your pet registry account to ${escapeHtml(newEmail)}. The change happens only when the link we sent to that address is opened.</p><p>If this was not you, change your password now: that cancels the request. Then contact our support.</p>`,
  };
}

/** Sent to the old address once the change took effect, so an owner who did not make it can act. */
export function emailChangedNotice(firstName: string, newEmail: string) {
  return {
    kind: 'email-change' as const,
    subject: 'Your email address was changed',
    text: `Hi ${oneLine(firstName)},\n\nThe email address of your pet registry account was changed to ${newEmail}.\nThis address will no longer receive messages about your account.\n\nIf you did not make this change, please contact our support at once.\n`,
    html: `<p>Hi ${escapeHtml(firstName)},</p><p>The email address of your pet registry account was changed to ${escapeHtml(newEmail)}. This address will no longer receive messages about your account.</p><p>If you did not make this change, please contact our support at once.</p>`,
  };
}

/** Why an administrator opened an account: a shelter's upload named its e-mail, or a pet was transferred to it. */
export type InvitationOrigin = { shelter: string } | { transfer: { petName: string; from: string } };

/**
 * To an account an administrator opened for its owner (a shelter upload, a transfer): the link sets its
 * first password. An account nobody asked for says where it comes from: the shelter whose upload
 * registered the owner's pet, or the pet a transfer gave them and whose account it came from.
 */
export function invitationEmail(firstName: string, link: string, origin?: InvitationOrigin) {
  // An account opened by a transfer has no names yet.
  const greeting = firstName ? `Hi ${oneLine(firstName)}` : 'Hello';
  const opened = !origin
    ? 'A pet registry account was opened for you'
    : 'shelter' in origin
      ? `A pet registry account was opened for you when the shelter ${origin.shelter} registered your pet with us`
      : `A pet registry account was opened for you when our support team transferred ${oneLine(origin.transfer.petName)} to you from ${oneLine(origin.transfer.from)}'s account`;
  const waiting = origin && 'transfer' in origin ? `${oneLine(origin.transfer.petName)}'s details are waiting in it` : "your pet's details are waiting in it";
  return {
    kind: 'invitation' as const,
    subject: origin && 'transfer' in origin ? `${oneLine(origin.transfer.petName)} is waiting in your new pet registry account` : 'Your pet registry account is ready',
    text: `${greeting},\n\n${opened}, and ${waiting}.\nOpen this link within ${INVITATION_DAYS} days to choose your password:\n\n${link}\n\nAfter that, use Forgot password on the sign-in page to get a new link.\n`,
    html: `<p>${escapeHtml(greeting)},</p><p>${escapeHtml(opened)}, and ${escapeHtml(waiting)}. Open this link within ${INVITATION_DAYS} days to choose your password:</p><p><a href="${escapeHtml(link)}">Choose your password</a></p><p>After that, use Forgot password on the sign-in page to get a new link.</p>`,
  };
}

/** How long an invitation's link works: its owner may not read mail every day. */
export const INVITATION_DAYS = 14;
