import { oneLine, transferOfferDays } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';
import type { Transaction } from '../../db/client.js';
import { mailOutbox, type petTransfers } from '../../db/schema.js';

/**
 * The e-mails of an owner's transfer offer (issue 20): both sides are told at every step. Names and
 * the pet's name are the owners' own words: each is put on one line (no header is ever built from a
 * line break) and escaped in the HTML.
 */
interface Notice {
  subject: string;
  greeting: string;
  lines: string[];
  link?: { href: string; label: string };
}

function notice({ subject, greeting, lines, link }: Notice) {
  const hello = greeting ? `Hi ${oneLine(greeting)},` : 'Hello,';
  const text = [hello, '', ...lines.flatMap((line, i) => (link && i === 0 ? [line, '', link.href, ''] : [line])), ''].join('\n');
  const html = [
    `<p>${escapeHtml(hello)}</p>`,
    ...lines.map((line, i) => `<p>${escapeHtml(line)}</p>${link && i === 0 ? `<p><a href="${escapeHtml(link.href)}">${escapeHtml(link.label)}</a></p>` : ''}`),
  ].join('');
  return { kind: 'transfer' as const, subject: oneLine(subject), text, html };
}

/** A transfer e-mail, as the outbox takes it. */
export type TransferMail = ReturnType<typeof notice>;

/** What every notice names: the pet, its owner's first name, the addressee's e-mail. */
export interface OfferParties {
  petName: string;
  fromFirstName: string;
  toEmail: string;
}

const names = ({ petName, fromFirstName, toEmail }: OfferParties) => ({ pet: oneLine(petName), from: oneLine(fromFirstName) || 'A pet owner', to: oneLine(toEmail) });

/** To the addressee: the offer, with the link that accepts or declines it. */
export function offerEmail(parties: OfferParties, link: string) {
  const { pet, from } = names(parties);
  return notice({
    subject: `${from} wants to transfer ${pet} to you`,
    greeting: '',
    lines: [
      `${from} asked our pet registry to transfer ${pet}'s registration, microchip and protection to you. Open this link within ${transferOfferDays} days to accept or decline:`,
      `If you accept, ${pet} moves to your account (we open one for this address if you have none, and ask you for a password and your phone number). Nothing changes unless you accept.`,
      `If you do not know ${from} or ${pet}, ignore this e-mail.`,
    ],
    link: { href: link, label: `See ${pet}'s transfer` },
  });
}

/** To the owner: the offer went out. */
export function offerSentEmail(parties: OfferParties) {
  const { pet, from, to } = names(parties);
  return notice({
    subject: `You offered ${pet} to ${to}`,
    greeting: from,
    lines: [
      `We e-mailed ${to} your offer to transfer ${pet}'s registration, microchip and protection. They have ${transferOfferDays} days to accept.`,
      `Until then ${pet} stays in your account, and you can cancel the transfer on ${pet}'s page.`,
    ],
  });
}

/** Both sides once the addressee accepted. */
export function acceptedEmails(parties: OfferParties & { toFirstName: string }) {
  const { pet, from, to } = names(parties);
  return {
    owner: notice({
      subject: `${pet} now belongs to its new owner`,
      greeting: from,
      lines: [
        `${to} accepted your transfer: ${pet}'s registration, microchip and protection are now theirs, and ${pet} no longer appears in your account.`,
        `Your backup contacts and your vets stay with your account.`,
      ],
    }),
    addressee: notice({
      subject: `${pet} is now registered to you`,
      greeting: parties.toFirstName,
      lines: [
        `You accepted ${from}'s transfer: ${pet}'s registration, microchip and protection are now in your account.`,
        `Sign in to check ${pet}'s details and add your vet.`,
      ],
    }),
  };
}

/** Both sides once the addressee declined. */
export function declinedEmails(parties: OfferParties) {
  const { pet, from, to } = names(parties);
  return {
    owner: notice({ subject: `${to} declined ${pet}'s transfer`, greeting: from, lines: [`${to} declined your transfer. ${pet} stays in your account.`] }),
    addressee: notice({ subject: `You declined ${pet}'s transfer`, greeting: '', lines: [`You declined ${from}'s transfer of ${pet}. Nothing was added to your account.`] }),
  };
}

/** Both sides once the offer ran out unanswered. */
export function expiredEmails(parties: OfferParties) {
  const { pet, from, to } = names(parties);
  return {
    owner: notice({
      subject: `The transfer of ${pet} expired`,
      greeting: from,
      lines: [`${to} did not answer your transfer within ${transferOfferDays} days. ${pet} stays in your account; you can offer it again on ${pet}'s page.`],
    }),
    addressee: notice({ subject: `${from}'s transfer of ${pet} expired`, greeting: '', lines: [`${from}'s offer to transfer ${pet} to you was not answered within ${transferOfferDays} days and has ended.`] }),
  };
}

/** Both sides once the owner cancelled (or the pet changed hands another way). */
export function canceledEmails(parties: OfferParties) {
  const { pet, from, to } = names(parties);
  return {
    owner: notice({ subject: `You cancelled the transfer of ${pet}`, greeting: from, lines: [`Your transfer of ${pet} to ${to} is cancelled. ${pet} stays in your account.`] }),
    addressee: notice({ subject: `${from} cancelled the transfer of ${pet}`, greeting: '', lines: [`${from} cancelled the offer to transfer ${pet} to you. Nothing was added to your account.`] }),
  };
}

/** The addressees of offers a change of owner ended (an administrator's transfer): the offer is no more. */
export async function tellOffersEnded(tx: Transaction, ended: (typeof petTransfers.$inferSelect)[], petName: string, fromFirstName: string) {
  if (ended.length === 0) return;
  await tx.insert(mailOutbox).values(ended.map((offer) => ({ recipient: offer.toEmail, ...canceledEmails({ petName, fromFirstName, toEmail: offer.toEmail }).addressee })));
}
