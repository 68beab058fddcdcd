import { randomUUID } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';

export interface TextMessage {
  /** E.164. */
  to: string;
  body: string;
}

export interface Texter {
  /** Resolves once the provider took the text (or its file is written), with the provider's id for it. */
  send(message: TextMessage): Promise<{ providerId: string }>;
  /**
   * The provider's ids of the texts it took for this number with this body since `since`, newest
   * first: asked before sending again a text whose hand-over ended in a TextOutcomeUnknownError.
   * A texter whose sends never end that way (the file texter) has none.
   */
  findSent?(message: TextMessage, since: Date): Promise<string[]>;
}

/** The provider refused this number or text for good (not a mobile, unsubscribed, invalid): sending again cannot deliver it. */
export class NumberRefusedError extends Error {
  /** The provider holds the number as having answered STOP: the portal records it too. */
  readonly optedOut: boolean;

  constructor(message: string, options: { optedOut?: boolean } = {}) {
    super(message);
    this.optedOut = options.optedOut ?? false;
  }
}

/** The provider could not be reached or used (no connection, a timeout, its 5xx, a rate limit): the text can only wait. */
export class TextProviderUnavailableError extends Error {}

/**
 * The request reached the provider but no answer came back (a timeout, a connection cut mid-answer):
 * the provider may have taken the text. It waits like any unavailability, and before it goes again
 * the provider is asked whether it has it (`Texter.findSent`), so a text is not sent twice.
 */
export class TextOutcomeUnknownError extends TextProviderUnavailableError {}

/**
 * The embedded default: each text is written as a file under `outboxDir` (`DATA_DIR/sms`), where
 * people and tests can read it, and the mail log lists it.
 */
export function createFileTexter(outboxDir: string): Texter {
  return {
    async send(message) {
      await mkdir(outboxDir, { recursive: true });
      const providerId = `file-${randomUUID()}`;
      const name = `${new Date().toISOString().replace(/[:.]/g, '-')}-${providerId}.txt`;
      await writeFile(join(outboxDir, name), `To: ${message.to}\n\n${message.body}\n`);
      return { providerId };
    },
  };
}
