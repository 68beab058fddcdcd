import { formatPhone, oneLine } from '@petreg/contract';
import { escapeHtml } from '../../adapters/mail/html.js';

/** What the owner is told of a new found report. Fixed wording: the finder's words fill the quoted places only. */
export interface ReportNotice {
  ownerFirstName: string;
  petName: string;
  finder: { name: string; phone: string | null; email: string | null };
  message: string;
  where: string;
  /** The owner's question and the finder's answer, when the finder answered it. */
  question: string | null;
  answer: string | null;
  hasPhoto: boolean;
  /** The report in the owner's inbox. */
  reportUrl: string;
  /** A reply to the owner's lost pet alert e-mail, relayed by the inbound mail listener, rather than a finder's form. */
  alertReply?: boolean;
}

/** How much of the finder's message a text quotes: the text stays about one SMS long. */
const TEXT_QUOTE_MAX = 100;

const NEVER_PAY = 'Never pay a finder in advance.';

/** The finder's first name, as the text introduces them. */
const firstNameOf = (name: string) => oneLine(name).trim().split(/\s+/)[0] ?? '';

/** The finder's contact lines, one per way to reach them. */
function contactLines(finder: ReportNotice['finder']): [string, string][] {
  return [
    ['Name', oneLine(finder.name)],
    ...(finder.phone ? [['Phone', formatPhone(finder.phone)] as [string, string]] : []),
    ...(finder.email ? [['Email', oneLine(finder.email)] as [string, string]] : []),
  ];
}

/**
 * The owner's e-mail. Only the pet's name goes into the subject (one line); the finder's words are
 * quoted in the text and escaped in the HTML, where no part of them becomes a link.
 */
export function foundReportEmail(notice: ReportNotice) {
  const pet = oneLine(notice.petName);
  const greeting = notice.ownerFirstName ? `Hi ${oneLine(notice.ownerFirstName)},` : 'Hello,';
  const reply = notice.alertReply;
  const details: [string, string][] = [
    ...(reply ? [] : ([[`Where ${pet} is now`, oneLine(notice.where)]] as [string, string][])),
    ...contactLines(notice.finder),
    ...(notice.question && notice.answer ? ([['Your question', oneLine(notice.question)], ['Their answer', oneLine(notice.answer)]] as [string, string][]) : []),
  ];
  const photo = notice.hasPhoto ? `The finder sent a photo: open the report to see it.` : null;
  const intro = reply
    ? `A pet-care professional who received your lost pet alert for ${pet} replied through the pet registry:`
    : `Someone found ${pet} and wrote to you through the pet registry:`;
  const answer = reply
    ? `They see none of your details: answer them at the e-mail address above, or share your phone number from the report.`
    : `The finder sees none of your details; from the report you can share your phone number with them.`;
  const warning = `${NEVER_PAY} Someone asking for money before you see your pet may not have it.`;
  const text = [
    greeting,
    '',
    intro,
    '',
    ...notice.message.split(/\r\n|\r|\n/).map((line) => `> ${line}`),
    '',
    ...details.map(([label, value]) => `${label}: ${value}`),
    ...(photo ? ['', photo] : []),
    '',
    `Open the report: ${notice.reportUrl}`,
    answer,
    '',
    warning,
    '',
  ].join('\n');
  const quoted = escapeHtml(notice.message).replace(/\r\n|\r|\n/g, '<br>');
  const html =
    `<p>${escapeHtml(greeting)}</p>` +
    `<p>${escapeHtml(intro)}</p>` +
    `<blockquote style="margin:0 0 1em;padding-left:1em;border-left:3px solid #ccc">${quoted}</blockquote>` +
    `<p>${details.map(([label, value]) => `<strong>${escapeHtml(label)}:</strong> ${escapeHtml(value)}`).join('<br>')}</p>` +
    (photo ? `<p>${escapeHtml(photo)}</p>` : '') +
    `<p><a href="${escapeHtml(notice.reportUrl)}">Open the report</a><br>${escapeHtml(answer)}</p>` +
    `<p><strong>${escapeHtml(NEVER_PAY)}</strong> Someone asking for money before you see your pet may not have it.</p>`;
  return { kind: 'found-report' as const, subject: reply ? `Reply to your lost pet alert for ${pet}` : `Someone found ${pet}`, text, html };
}

/** The owner's text: short, the start of the finder's words, and the report's address. */
export function foundReportText(notice: Pick<ReportNotice, 'petName' | 'finder' | 'message' | 'reportUrl' | 'alertReply'>): string {
  const words = oneLine(notice.message).trim();
  const quote = words.length > TEXT_QUOTE_MAX ? `${words.slice(0, TEXT_QUOTE_MAX)}…` : words;
  const opening = notice.alertReply
    ? `${oneLine(notice.finder.name)} replied to your lost pet alert for ${oneLine(notice.petName)}:`
    : `${oneLine(notice.petName)} was found. ${firstNameOf(notice.finder.name)} wrote:`;
  return `${opening} "${quote}" Open: ${notice.reportUrl}`;
}
