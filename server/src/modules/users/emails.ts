/** The password-reset e-mail: plain text and HTML with the same single-use link. */
export function resetPasswordEmail(firstName: string, link: string) {
  const escape = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
  return {
    subject: 'Reset your password',
    text: `Hi ${firstName},\n\nWe received a request to reset the password of your pet registry account.\nOpen this link within one hour to choose a new password:\n\n${link}\n\nIf you did not ask for this, you can ignore this e-mail; your password stays the same.\n`,
    html: `<p>Hi ${escape(firstName)},</p><p>We received a request to reset the password of your pet registry account. Open this link within one hour to choose a new password:</p><p><a href="${escape(link)}">Reset your password</a></p><p>If you did not ask for this, you can ignore this e-mail; your password stays the same.</p>`,
  };
}
