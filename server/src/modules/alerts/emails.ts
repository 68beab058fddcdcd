import { ageInMonths, formatAge, formatMoney, formatPhone, lbsToKg, limits, normalisePhone, oneLine, sexes } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';
import { singleAddress } from '../../adapters/mail/index.js';

/** What an alert e-mail says about the pet, read once per alert when its e-mails are sent. */
export interface AlertedPet {
  name: string;
  species: string | null;
  breeds: string[];
  /** Colour and markings as the owner wrote them (made one line when written out). */
  colour: string | null;
  sex: number;
  /** The chips the pet carries (not removed): the number a clinic's scanner reads. */
  chips: string[];
  dob: string | null;
  /** Pounds, as owners enter it. */
  weightLbs: number | null;
  /** When the pet went missing, in the last-seen place's time (formatLocalTime). */
  missingSince: string;
  place: string;
  incidentDescription: string;
  /** The owner's phone and e-mail, only when the owner chose to share contact info; otherwise nothing of the owner. */
  sharedContact: { phone: string | null; email: string } | null;
  /** Absolute addresses: the pet's photo (or null), its public profile (the short link) and the finder's report form. */
  photoUrl: string | null;
  profileUrl: string;
  reachOwnerUrl: string;
}

/** Where the recipient of one alert e-mail chooses what they receive or opts out, and whose pixel records the open. */
export interface RecipientLinks {
  unsubscribeUrl: string;
  /** The signed page of the address's choices: species, radius, daily cap, pause. */
  preferencesUrl: string;
  pixelUrl: string;
  /** The recovery line a finder may call instead. */
  supportPhone: string;
  /** This e-mail's own address at the inbound mail relay, or null when there is no relay. */
  relayAddress: string | null;
}

const kindOf = (pet: Pick<AlertedPet, 'species'>) => (pet.species ?? 'pet').toLowerCase();

const paragraphs = (lines: string[]) => lines.map((line) => `<p>${line}</p>`).join('');

/** The pet with its name on one line: a name stored before the rule must not forge lines of the text (a fake phone number). */
const withOneLineName = <P extends { name: string }>(pet: P): P => ({ ...pet, name: oneLine(pet.name) });

/** The pet's details a professional matches a found animal on, as label and one-line value; what the record lacks is left out. */
function details(pet: AlertedPet, now: Date): [string, string][] {
  const months = ageInMonths(pet.dob, now);
  const rows: [string, string | null][] = [
    [pet.chips.length > 1 ? 'Microchips' : 'Microchip', pet.chips.join(', ') || null],
    ['Species', pet.species],
    ['Breed', pet.breeds.join(', ') || null],
    ['Colour', pet.colour],
    ['Sex', pet.sex > 0 ? (sexes.find((s) => s.id === pet.sex)?.name ?? null) : null],
    ['Age', months > 0 ? formatAge(months) : null],
    ['Weight', pet.weightLbs === null ? null : `${pet.weightLbs} lb (${lbsToKg(pet.weightLbs)} kg)`],
  ];
  return rows.filter((row): row is [string, string] => Boolean(row[1])).map(([label, value]) => [label, oneLine(value)]);
}

/**
 * The owner's own words, several lines kept, each on its own line of the e-mail (other control
 * characters a space), blank runs made one, and no longer than the alert form allows.
 */
function ownerWords(description: string): string[] {
  const characters = Array.from(description);
  const capped = characters.length > limits.incidentDescriptionMax ? `${characters.slice(0, limits.incidentDescriptionMax).join('')}…` : description;
  return capped
    .split(/\r\n|[\r\n\u2028\u2029]/)
    .map((line) => oneLine(line).trimEnd())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim()
    .split('\n');
}

/** A phone shown as given, linked to its tel: address (E.164) when it is a dialable number; kept whole on a narrow screen. */
function phoneLink(shown: string, stored: string): string {
  const dial = normalisePhone(stored);
  return dial ? `<a href="${escapeHtml(`tel:${dial}`)}" style="white-space:nowrap">${escapeHtml(shown)}</a>` : escapeHtml(shown);
}

const style = {
  body: 'max-width:600px;margin:0 auto;font-family:Arial,Helvetica,sans-serif;font-size:16px;line-height:1.5;color:#1f2933',
  label: 'padding:4px 16px 4px 0;text-align:left;font-weight:normal;color:#52606d;white-space:nowrap;vertical-align:top',
  value: 'padding:4px 0;vertical-align:top;word-break:break-word',
  words: 'margin:0 0 16px;padding:8px 12px;border-left:4px solid #9aa5b1;background:#f5f7fa',
  button: 'display:inline-block;padding:12px 24px;border-radius:6px;background:#1565c0;color:#ffffff;font-weight:bold;text-decoration:none',
};

/**
 * The lost pet alert a professional receives: photo, the details a clinic matches on, where and
 * when, the owner's words, and how to reach the owner (the relay form, the owner's phone when the
 * owner shares contact info, the profile and the recovery line). Replies go to the e-mail's relay
 * address when there is one, else to the owner's address when shared; otherwise the e-mail says
 * replies are not read, and sets no Reply-To (a reply would reach nobody). The owner's
 * words are user input over several lines: quoted line by line under their own heading, so none
 * reads as one of the registry's lines.
 */
export function alertEmail(alerted: AlertedPet, links: RecipientLinks, now: Date = new Date()) {
  const pet = { ...withOneLineName(alerted), place: oneLine(alerted.place) };
  const lastSeen = `last seen near ${pet.place}`;
  const rows = details(pet, now);
  const words = ownerWords(pet.incidentDescription);
  const stored = pet.sharedContact?.phone;
  const phone = stored ? { shown: oneLine(formatPhone(stored)), stored } : null;
  const replyTo = links.relayAddress ?? (pet.sharedContact ? singleAddress(pet.sharedContact.email) : null);
  const missing = `Missing since ${pet.missingSince}, ${lastSeen}.`;
  const seen = `If ${pet.name} is brought to you or you see ${pet.name}:`;
  const replyLine = links.relayAddress
    ? "Or reply to this e-mail: we pass your words (text only) and your e-mail address to the owner, whose address stays private."
    : replyTo
      ? 'Or reply to this e-mail: it goes to the owner.'
      : 'Replies to this e-mail are not read: use Reach the owner above.';
  const footer = `You receive lost pet alerts as a pet-care professional within 50 miles of where a pet went missing.`;
  const name = escapeHtml(pet.name);
  return {
    subject: `Lost ${kindOf(pet)}: ${pet.name}, ${lastSeen}`,
    ...(replyTo && { replyTo }),
    text: [
      `LOST ${kindOf(pet).toUpperCase()}: ${pet.name}`,
      missing,
      '',
      ...rows.map(([label, value]) => `${label}: ${value}`),
      '',
      "In the owner's words:",
      ...words.map((line) => (line ? `> ${line}` : '>')),
      '',
      seen,
      `Reach the owner: ${pet.reachOwnerUrl}`,
      ...(phone ? [`Owner's phone: ${phone.shown}`] : []),
      replyLine,
      `${pet.name}'s profile: ${pet.profileUrl}`,
      `Our recovery line (24/7): ${links.supportPhone}`,
      ...(pet.photoUrl ? ['', `Photo: ${pet.photoUrl}`] : []),
      '',
      footer,
      `Choose which alerts you receive: ${links.preferencesUrl}`,
      `Unsubscribe from lost pet alerts: ${links.unsubscribeUrl}`,
      '',
    ].join('\n'),
    html:
      `<div style="${style.body}">` +
      `<h1 style="font-size:24px;line-height:1.25;margin:0 0 12px">Lost ${escapeHtml(kindOf(pet))}: ${name}</h1>` +
      (pet.photoUrl ? `<p><img src="${escapeHtml(pet.photoUrl)}" alt="${name}" width="320" style="max-width:100%;height:auto;border-radius:8px"></p>` : '') +
      `<p><strong>${escapeHtml(missing)}</strong></p>` +
      `<table role="presentation" cellpadding="0" cellspacing="0" style="border-collapse:collapse;margin:0 0 16px">` +
      rows.map(([label, value]) => `<tr><th scope="row" style="${style.label}">${escapeHtml(label)}</th><td style="${style.value}">${escapeHtml(value)}</td></tr>`).join('') +
      `</table>` +
      `<p style="margin:0 0 4px"><strong>In the owner&#39;s words:</strong></p>` +
      `<blockquote style="${style.words}">${words.map(escapeHtml).join('<br>')}</blockquote>` +
      paragraphs([
        escapeHtml(seen),
        `<a href="${escapeHtml(pet.reachOwnerUrl)}" style="${style.button}">Reach the owner</a>`,
        ...(phone ? [`Owner&#39;s phone: ${phoneLink(phone.shown, phone.stored)}`] : []),
        escapeHtml(replyLine),
        `<a href="${escapeHtml(pet.profileUrl)}">${name}&#39;s profile</a> &middot; Our recovery line (24/7): ${phoneLink(links.supportPhone, links.supportPhone)}`,
        `<small style="color:#52606d">${escapeHtml(footer)} <a href="${escapeHtml(links.preferencesUrl)}">Choose which alerts you receive</a> &middot; <a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe from lost pet alerts</a></small>`,
      ]) +
      `<img src="${escapeHtml(links.pixelUrl)}" width="1" height="1" alt="" style="display:block;border:0">` +
      `</div>`,
  };
}

/** The short note to each professional who got the alert, once the pet is home, so nobody keeps looking. */
export function foundEmail(stored: Pick<AlertedPet, 'name' | 'species' | 'place'>, links: Pick<RecipientLinks, 'unsubscribeUrl' | 'preferencesUrl'>) {
  const pet = withOneLineName(stored);
  const text = `Good news: ${pet.name}, the lost ${kindOf(pet)} last seen near ${pet.place} we alerted you about, has been found. You can stop looking. Thank you for your help.`;
  return {
    subject: `Found: ${pet.name} is home, thank you`,
    text: `${text}\n\nChoose which alerts you receive: ${links.preferencesUrl}\nUnsubscribe from lost pet alerts: ${links.unsubscribeUrl}\n`,
    html: paragraphs([
      escapeHtml(text),
      `<small><a href="${escapeHtml(links.preferencesUrl)}">Choose which alerts you receive</a> &middot; <a href="${escapeHtml(links.unsubscribeUrl)}">Unsubscribe from lost pet alerts</a></small>`,
    ]),
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
