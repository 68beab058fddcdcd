import { MicrochipLookup } from './MicrochipLookup';
import { ContactSection, LostTime } from './profileParts';

/**
 * The parts of the finder's pages that need the browser: the lookup form, a profile's lost time (in
 * the reader's time zone) and its contact menu. Everything else of those pages is the server's HTML,
 * plain links and text, and is never hydrated.
 */
export const islands = { lookup: MicrochipLookup, lostTime: LostTime, contact: ContactSection };

export type IslandName = keyof typeof islands;
