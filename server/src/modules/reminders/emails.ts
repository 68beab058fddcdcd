import { formatRegisteredUntil, oneLine, paths, withId } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

/** Where the reminders' links lead: the portal's address. */
export interface ReminderSettings {
  publicUrl: string;
}

/** A line of an e-mail: words, or words followed by a link. */
type Line = string | { text: string; url: string; label: string };

/** The e-mail as text and HTML from the same lines: links written out in the text, anchors in the HTML. */
function composed(firstName: string, lines: Line[]) {
  const all: Line[] = [`Hi ${oneLine(firstName)},`, ...lines];
  return {
    text: `${all.map((line) => (typeof line === 'string' ? line : `${line.text} ${line.url}`)).join('\n\n')}\n`,
    html: all
      .map((line) =>
        typeof line === 'string'
          ? `<p>${escapeHtml(line)}</p>`
          : `<p>${escapeHtml(line.text)} <a href="${escapeHtml(line.url)}">${escapeHtml(line.label)}</a></p>`,
      )
      .join(''),
  };
}

/** What a reminder about one pet is built from. */
interface PetReminder {
  firstName: string;
  petId: number;
  petName: string;
}

const links = (publicUrl: string, petId: number) => ({
  billing: { text: 'Your plans and payments:', url: `${publicUrl}${paths.billing}`, label: 'Billing' },
  plan: { text: 'Choose a plan:', url: `${publicUrl}${withId(paths.clientPetCheckout, petId)}`, label: 'Choose a plan' },
  settings: (why: string) => ({ text: why, url: `${publicUrl}${paths.clientProfile}`, label: 'Reminder settings' }),
});

/**
 * 30 or 7 days before a yearly plan ends: it renews automatically on its end date, or (renewal
 * stopped) it ends then, and the chip is no longer registered after it.
 */
export function renewalReminderEmail(reminder: PetReminder & { endsAt: Date; renews: boolean }, { publicUrl }: ReminderSettings) {
  const pet = oneLine(reminder.petName);
  const date = formatRegisteredUntil(reminder.endsAt);
  const link = links(publicUrl, reminder.petId);
  const state = reminder.renews ? `renews automatically on ${date}` : `ends on ${date}`;
  const lines: Line[] = reminder.renews
    ? [`${pet}'s yearly plan ${state}, so ${pet}'s microchip stays registered and a finder can keep reaching you.`, link.billing]
    : [
        `${pet}'s yearly plan ${state}: its automatic renewal is stopped. After that day ${pet}'s microchip is no longer registered with us, and a finder who looks it up cannot reach you.`,
        { ...link.plan, text: `To keep ${pet} protected, choose a plan:` },
        link.billing,
      ];
  return {
    kind: 'renewal-reminder' as const,
    subject: `${pet}'s plan ${state}`,
    ...composed(reminder.firstName, [...lines, link.settings('You get this reminder 30 and 7 days before a yearly plan renews or ends. To switch it off:')]),
  };
}

/** The daily sweep ended a yearly plan that was not renewed: sent whatever the owner's reminder settings. */
export function coverLapsedEmail(reminder: PetReminder & { endedAt: Date }, { publicUrl }: ReminderSettings) {
  const pet = oneLine(reminder.petName);
  const link = links(publicUrl, reminder.petId);
  return {
    kind: 'cover-lapsed' as const,
    subject: `${pet}'s cover has lapsed`,
    ...composed(reminder.firstName, [
      `${pet}'s yearly plan ended on ${formatRegisteredUntil(reminder.endedAt)} and was not renewed: ${pet}'s microchip is no longer registered with us, and a finder who looks it up cannot reach you.`,
      { ...link.plan, text: `To protect ${pet} again, choose a plan:` },
      link.billing,
      link.settings('This notice is always sent when cover lapses. To choose the reminders you get:'),
    ]),
  };
}

/** On a chipped pet's registration anniversary: have the vet check the chip still reads, and the details are right. */
export function chipScanEmail(reminder: PetReminder & { years: number; chipIds: string[] }, { publicUrl }: ReminderSettings) {
  const pet = oneLine(reminder.petName);
  const years = `${reminder.years} year${reminder.years === 1 ? '' : 's'}`;
  return {
    kind: 'chip-scan-reminder' as const,
    subject: `Ask your vet to scan ${pet}'s microchip`,
    ...composed(reminder.firstName, [
      `${pet} was registered with us ${years} ago. At ${pet}'s next visit, ask your vet to scan the microchip: chips can fail or move, and a quick scan shows it still reads ${reminder.chipIds.join(', ')}.`,
      { text: `Check that ${pet}'s details are up to date:`, url: `${publicUrl}${withId(paths.clientPetUpdate, reminder.petId)}`, label: `${pet}'s page` },
      links(publicUrl, reminder.petId).settings('You get this reminder once a year for each chipped pet. To switch it off:'),
    ]),
  };
}
