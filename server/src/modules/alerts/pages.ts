import { escapeHtml } from '../../adapters/mail/html.js';

/** The pages of an alert e-mail's links: one narrow column that reads on a phone, no script. `css` adds a page's own rules. */
export function page(title: string, body: string, css = ''): string {
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width,initial-scale=1"><title>${escapeHtml(title)}</title><style>body{font-family:system-ui,sans-serif;max-width:32rem;margin:4rem auto;padding:0 1rem;line-height:1.5;color:#1f2933}button{font:inherit;padding:.6rem 1.2rem;border:0;border-radius:4px;background:#1565c0;color:#fff;cursor:pointer}${css}</style></head><body><h1>${escapeHtml(title)}</h1>${body}</body></html>`;
}

/**
 * What the unsubscribe address shows when opened: a button that posts the one-click request. A GET
 * changes nothing, since mail scanners follow every link of a message.
 */
export function unsubscribeConfirmPage(email: string): string {
  return page(
    'Unsubscribe from lost pet alerts',
    `<p>Stop sending lost pet alerts to <strong>${escapeHtml(email)}</strong>?</p><form method="post"><input type="hidden" name="List-Unsubscribe" value="One-Click"><button type="submit">Unsubscribe</button></form>`,
  );
}

export function unsubscribedPage(email: string): string {
  return page('You are unsubscribed', `<p>We will send no more lost pet alerts to <strong>${escapeHtml(email)}</strong>.</p>`);
}

export function unknownUnsubscribePage(): string {
  return page('Link not recognised', '<p>This unsubscribe link is not valid. Please use the link in the most recent alert you received.</p>');
}
