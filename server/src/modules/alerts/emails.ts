import { formatMoney, oneLine, sexes } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

/** What an alert e-mail says about the pet, read once per alert when its e-mails are sent. */
export interface AlertedPet {
  name: string;
  species: string | null;
  breeds: string[];
  sex: number;
  /** When the pet went missing, in the last-seen place's time (formatLocalTime). */
  missingSince: string;
  place: string;
  incidentDescription: string;
  /** Absolute addresses: the pet's photo (or null) and its public profile (the short link). */
  photoUrl: string | null;
  profileUrl: string;
}

/** Where the recipient of one alert e-mail opts out and whose pixel records the open. */
export interface RecipientLinks {
  unsubscribeUrl: string;
  pixelUrl: string;
  /** The recovery line a finder may call instead. */
  supportPhone: string;
}

const kindOf = (pet: Pick<AlertedPet, 'species'>) => (pet.species ?? 'pet').toLowerCase();

function describe(pet: AlertedPet): string {
  const sex = pet.sex > 0 ? sexes.find((s) => s.id === pet.sex)?.name : null;
  return [pet.species, pet.breeds.join(', '), sex].filter(Boolean).join(' · ');
}

const paragraphs = (lines: string[]) => lines.map((line) => `<p>${line}</p>`).join('');

/** The pet with its name on one line: a name stored before the rule must not forge lines of the text (a fake phone number). */
const withOneLineName = <P extends { name: string }>(pet: P): P => ({ ...pet, name: oneLine(pet.name) });

/** The lost pet alert a professional receives: photo, description, where and when, and how to reach the owner. */
export function alertEmail(stored: AlertedPet, links: RecipientLinks) {
  const pet = withOneLineName(stored);
  const lastSeen = `last seen near ${pet.place}`;
  const reach = `Open ${pet.name}'s profile to reach the owner: ${pet.profileUrl}\nOr call our recovery line, ${links.supportPhone} (24/7), and give them this link.`;
  const footer = `You receive lost pet alerts as a pet-care professional within 50 miles of where a pet went missing.`;
  const name = escapeHtml(pet.name);
  return {
    subject: `Lost ${kindOf(pet)}: ${pet.name}, ${lastSeen}`,
    text: [
      `LOST ${kindOf(pet).toUpperCase()}: ${pet.name}`,
      describe(pet),
      `Missing since ${pet.missingSince}, ${lastSeen}.`,
      '',
      `The owner says: "${pet.incidentDescription}"`,
      '',
      `If ${pet.name} is brought to you or you see ${pet.name}:`,
      reach,
      ...(pet.photoUrl ? ['', `Photo: ${pet.photoUrl}`] : []),
      '',
      footer,
      `Unsubscribe from lost pet alerts: ${links.unsubscribeUrl}`,
      '',
    ].join('\n'),
    html:
      `<h1>Lost ${escapeHtml(kindOf(pet))}: ${name}</h1>` +
      (pet.photoUrl ? `<p><img src="${escapeHtml(pet.photoUrl)}" alt="${name}" width="320" style="max-width:100%;height:auto"></p>` : '') +
      paragraphs([
        `<strong>${escapeHtml(describe(pet))}</strong>`,
        `Missing since ${escapeHtml(pet.missingSince)}, ${escapeHtml(lastSeen)}.`,
        `The owner says: &ldquo;${escapeHtml(pet.incidentDescription)}&rdquo;`,
        `If ${name} is brought to you or you see ${name}, <a href="${escapeHtml(pet.profileUrl)}">open ${name}'s profile</a> to reach the owner, or call our recovery line, ${escapeHtml(links.supportPhone)} (24/7), and give them this link: ${escapeHtml(pet.profileUrl)}`,
        `<small>${escapeHtml(footer)} <a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe from lost pet alerts</a></small>`,
      ]) +
      `<img src="${escapeHtml(links.pixelUrl)}" width="1" height="1" alt="" style="display:block;border:0">`,
  };
}

/** The short note to each professional who got the alert, once the pet is home, so nobody keeps looking. */
export function foundEmail(stored: Pick<AlertedPet, 'name' | 'species' | 'place'>, links: Pick<RecipientLinks, 'unsubscribeUrl'>) {
  const pet = withOneLineName(stored);
  const text = `Good news: ${pet.name}, the lost ${kindOf(pet)} last seen near ${pet.place} we alerted you about, has been found. You can stop looking. Thank you for your help.`;
  return {
    subject: `Found: ${pet.name} is home, thank you`,
    text: `${text}\n\nUnsubscribe from lost pet alerts: ${links.unsubscribeUrl}\n`,
    html: paragraphs([escapeHtml(text), `<small><a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe from lost pet alerts</a></small>`]),
  };
}

export interface AlertSent {
  firstName: string;
  petName: string;
  place: string;
  recipients: number;
  payment: { amountCents: number; currency: string } | null;
  analyticsUrl: string;
}

const reachedOf = (recipients: number) =>
  recipients === 1 ? '1 pet-care professional' : `${recipients.toLocaleString('en-US')} pet-care professionals`;

/** The owner's confirmation: how many professionals the alert went to, and what was paid for it. */
export function alertSentEmail(stored: AlertSent) {
  const sent = { ...stored, petName: oneLine(stored.petName), firstName: oneLine(stored.firstName) };
  const reached = reachedOf(sent.recipients);
  const lines = [
    `Your lost pet alert for ${sent.petName} is on its way to ${reached} within 50 miles of ${sent.place}.`,
    sent.payment ? `We received ${formatMoney(sent.payment.amountCents, sent.payment.currency)} for it.` : `It was sent at no charge: ${sent.petName}'s protection plan includes alerts.`,
    `Follow its delivery in Lost Pet Alerts. When ${sent.petName} is home, mark ${sent.petName} as found there, and everyone alerted will be told.`,
  ];
  return {
    kind: 'alert-sent' as const,
    subject: `Your lost pet alert for ${sent.petName} was sent`,
    text: `Hi ${sent.firstName},\n\n${lines.join('\n')}\n\nLost Pet Alerts: ${sent.analyticsUrl}\n`,
    html: paragraphs([`Hi ${escapeHtml(sent.firstName)},`, ...lines.map(escapeHtml), `<a href="${escapeHtml(sent.analyticsUrl)}">Lost Pet Alerts</a>`]),
  };
}

/** The same confirmation as a text to the owner's verified mobile: short, with where to follow it. */
export function alertSentText(stored: AlertSent) {
  return `Your lost pet alert for ${oneLine(stored.petName)} is on its way to ${reachedOf(stored.recipients)} within 50 miles of ${stored.place}. Follow it: ${stored.analyticsUrl}`;
}
