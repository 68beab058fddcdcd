import { formatMoney, formatRegisteredUntil, oneLine } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

/** The receipt sent once a protection plan is paid. */
export function receiptEmail(stored: {
  firstName: string;
  petName: string;
  planName: string;
  amountCents: number;
  /** Credit for unused yearly cover taken off the price. */
  creditCents: number;
  currency: string;
  expiration: Date | null;
  dashboardUrl: string;
}) {
  const order = { ...stored, firstName: oneLine(stored.firstName), petName: oneLine(stored.petName) };
  const until = order.expiration ? `registered until ${formatRegisteredUntil(order.expiration)}` : 'registered for life';
  const paid = formatMoney(order.amountCents, order.currency);
  const credit = order.creditCents ? `Credit for unused yearly cover: -${formatMoney(order.creditCents, order.currency)}. Total paid: ${paid}.` : '';
  return {
    kind: 'receipt' as const,
    subject: `${order.petName} is protected`,
    text: `Hi ${order.firstName},\n\nThank you. We received ${paid} for ${order.planName}: ${order.petName}'s microchip is now ${until}.\nIf ${order.petName} is ever found, the finder can reach you through our recovery service, 24/7.\n${credit && `${credit}\n`}\nYour dashboard: ${order.dashboardUrl}\n`,
    html: `<p>Hi ${escapeHtml(order.firstName)},</p><p>Thank you. We received ${escapeHtml(paid)} for ${escapeHtml(order.planName)}: ${escapeHtml(order.petName)}'s microchip is now ${escapeHtml(until)}.</p><p>If ${escapeHtml(order.petName)} is ever found, the finder can reach you through our recovery service, 24/7.</p>${credit && `<p>${escapeHtml(credit)}</p>`}<p><a href="${escapeHtml(order.dashboardUrl)}">Go to your dashboard</a></p>`,
  };
}
