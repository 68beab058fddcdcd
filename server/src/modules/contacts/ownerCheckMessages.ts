import { contactCheckRules, formatPhone, oneLine } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

/** Why the owner is asked: the months went by, or a message to them did not arrive. */
export type CheckReason = 'periodic' | 'bounced' | 'text-failed';

export interface CheckMessage {
  firstName: string;
  email: string;
  /** The verified mobile, or null: then the e-mail says no number is on file. */
  phoneNumber: string | null;
  reason: CheckReason;
  confirmLink: string;
  profileLink: string;
}

const SUBJECT = 'Is this still how we reach you?';

function why(message: CheckMessage): string {
  if (message.reason === 'bounced') return `Our last e-mail to ${oneLine(message.email)} could not be delivered.`;
  if (message.reason === 'text-failed') return `Our last text to ${formatPhone(message.phoneNumber)} did not go through.`;
  return 'When someone finds your pet, this is how we reach you.';
}

/** The e-mail: the contacts on file, a link that confirms them in one click (no sign-in), and one to change them. */
export function contactCheckEmail(message: CheckMessage) {
  const greeting = message.firstName ? `Hi ${oneLine(message.firstName)}` : 'Hello';
  const mobile = message.phoneNumber ? formatPhone(message.phoneNumber) : 'none on file';
  const reason = why(message);
  const lifetime = `The link works for ${contactCheckRules.linkLifetimeDays} days; no sign-in is needed.`;
  return {
    kind: 'contacts-check' as const,
    subject: SUBJECT,
    text: `${greeting},\n\n${reason} Is this still how we reach you?\n\nE-mail: ${oneLine(message.email)}\nMobile: ${mobile}\n\nYes, still right: ${message.confirmLink}\n${lifetime}\n\nSomething changed? Update your profile: ${message.profileLink}\n`,
    html: `<p>${escapeHtml(greeting)},</p><p>${escapeHtml(reason)} Is this still how we reach you?</p><p>E-mail: ${escapeHtml(message.email)}<br>Mobile: ${escapeHtml(mobile)}</p><p><a href="${escapeHtml(message.confirmLink)}">Yes, this is still how to reach me</a></p><p>${escapeHtml(lifetime)}</p><p>Something changed? <a href="${escapeHtml(message.profileLink)}">Update your profile</a></p>`,
  };
}

/** The text to the verified mobile: short, with the same two links. */
export function contactCheckText(message: CheckMessage, registryName: string): string {
  const reason = message.reason === 'periodic' ? '' : ` ${why(message)}`;
  return `${registryName}: ${SUBJECT}${reason} E-mail ${message.email}, mobile ${formatPhone(message.phoneNumber)}. Confirm: ${message.confirmLink} or update your profile: ${message.profileLink}`;
}
