import { escapeHtml } from '../../adapters/mail/html.js';

/** The password-reset e-mail: plain text and HTML with the same single-use link. */
export function resetPasswordEmail(firstName: string, link: string) {
  return {
    subject: 'Reset your password',
    text: `Hi ${firstName},\n\nWe received a request to reset the password of your pet registry account.\nOpen this link within one hour to choose a new password:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail; your password stays the same.\n`,
    html: `<p>Hi ${escapeHtml(firstName)},</p><p>We received a request to reset the password of your pet registry account. Open this link within one hour to choose a new password:</p><p><a href="${escapeHtml(link)}">Reset your password</a></p><p>If you did not ask for this, you can ignore this e-mail; your password stays the same.</p>`,
  };
}
