import { formatPhone, oneLine } from '@petreg/contract';
import type { foundReports } from '../../db/schema.js';

/** An unopened report as the escalation tells it: the finder's report, the pet, and the owner's first name. */
export type EscalatedReport = typeof foundReports.$inferSelect & {
  petName: string;
  species: string | null;
  userId: number;
  ownerFirstName: string;
};

/** How the finder can be reached: the phone written for people, the e-mail, or both. */
export function finderContactOf(report: Pick<EscalatedReport, 'finderPhone' | 'finderEmail'>): string {
  return [report.finderPhone && formatPhone(report.finderPhone), report.finderEmail].filter(Boolean).map((v) => oneLine(v!)).join(' or ');
}

/** The text to a backup contact: the owner's first name, the pet and the finder's contact, nothing more. */
export function backupContactText(report: EscalatedReport): string {
  const owner = oneLine(report.ownerFirstName);
  return `${owner}'s pet ${oneLine(report.petName)} was found. The finder ${oneLine(report.finderName)} can be reached at ${finderContactOf(report)}. Please tell ${owner}.`;
}

/** "2 hours", "90 minutes": the delay as the vets' e-mail says it. */
function spoken(minutes: number): string {
  const [amount, unit] = minutes % 60 === 0 ? [minutes / 60, 'hour'] : [minutes, 'minute'];
  return `${amount} ${unit}${amount === 1 ? '' : 's'}`;
}

/**
 * The e-mail to the pet's vets: the pet as a practice files it (name, species, chip numbers) and the
 * finder's contact and words. Plain text only: the finder's words are never markup or our link.
 */
export function vetEmail(report: EscalatedReport & { chipIds: string[] }, afterMinutes: number) {
  const pet = oneLine(report.petName);
  const chipLine = report.chipIds.length ? report.chipIds.join(', ') : 'none registered';
  const lines = [
    'Hello,',
    '',
    `Someone found ${pet}, a pet its owner registered with your practice as its vet, and the owner has not read the finder's report for ${spoken(afterMinutes)}. If you know the owner, please call them and pass on the finder's contact.`,
    '',
    `Pet: ${pet}`,
    `Species: ${oneLine(report.species ?? 'not given')}`,
    `Microchip: ${chipLine}`,
    '',
    `Found by: ${oneLine(report.finderName)}`,
    `Finder's contact: ${finderContactOf(report)}`,
    `Where the pet is now: ${oneLine(report.location)}`,
    '',
    "The finder's message:",
    report.message,
    '',
  ];
  return {
    kind: 'found-report-vet' as const,
    subject: `Found: ${pet} (microchip ${chipLine}), please help reach the owner`,
    text: lines.join('\n'),
  };
}
