import { once } from 'node:events';
import type { AddressInfo } from 'node:net';
import type { FastifyBaseLogger } from 'fastify';
import { SMTPServer } from 'smtp-server';
import { replyTokenOf } from './address.js';
import { RelayRefusal, type AlertReplies } from './replies.js';
import type { InboundMailSettings } from './settings.js';

/** Connections served at once: a reply is one short message; many more is someone hammering the port. */
const MAX_CLIENTS = 50;
const SOCKET_TIMEOUT_MS = 60_000;

const refusal = (code: number, message: string) => Object.assign(new Error(message), { responseCode: code });

/**
 * The inbound SMTP listener of the alert relay: takes mail only for live reply addresses at the
 * inbound mail domain (anything else 550 at RCPT, so it relays nothing), one recipient a message,
 * at most `maxBytes` (552), no sign-in. Of a message only the plain text part is read (never the
 * HTML, links or attachments) and filed for the owner. What the sender's server gets back are fixed
 * SMTP answers: nothing of the owner, and nothing is ever sent back to the sender.
 */
export function createInboundMailListener(deps: { settings: InboundMailSettings; replies: AlertReplies; log: Pick<FastifyBaseLogger, 'warn' | 'info'> }) {
  const { settings, replies, log } = deps;
  const failed = (error: unknown) => {
    if (error instanceof RelayRefusal) return refusal(error.responseCode, error.message);
    log.warn({ err: error }, 'inbound mail: a reply could not be filed');
    return refusal(451, '4.3.0 Try again later');
  };

  const server = new SMTPServer({
    name: settings.domain,
    banner: 'Lost pet alert replies',
    authOptional: true,
    disabledCommands: ['AUTH', 'STARTTLS'],
    size: settings.maxBytes,
    maxClients: MAX_CLIENTS,
    socketTimeout: SOCKET_TIMEOUT_MS,
    logger: false,
    // No DNS lookup per connection: the client's name is never used.
    disableReverseLookup: true,
    onRcptTo(address, session, callback) {
      if (session.envelope.rcptTo.length > 0) return callback(refusal(452, '4.5.3 One recipient per message'));
      const token = replyTokenOf(address.address, settings.domain);
      if (!token) return callback(refusal(550, '5.1.1 No such recipient here'));
      replies.accept(token).then(() => callback(), (error: unknown) => callback(failed(error)));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (chunk: Buffer) => {
        // Past the limit nothing more is kept; the stream is read to its end so the answer comes after the data.
        if (!stream.sizeExceeded) chunks.push(chunk);
      });
      stream.on('end', () => {
        if (stream.sizeExceeded) return callback(refusal(552, '5.3.4 Message too big'));
        const token = replyTokenOf(session.envelope.rcptTo[0]?.address ?? '', settings.domain);
        if (!token) return callback(refusal(550, '5.1.1 No such recipient here'));
        // The parser takes a seventh of a second to load: loaded with the first reply, not at every start.
        import('mailparser')
          .then(({ simpleParser }) => simpleParser(Buffer.concat(chunks), { skipHtmlToText: true, skipTextToHtml: true, skipTextLinks: true, skipImageLinks: true }))
          .then((parsed) => replies.file(token, parsed.text))
          .then(
            () => callback(null, 'Reply passed on'),
            (error: unknown) => callback(failed(error)),
          );
      });
    },
  });
  server.on('error', (error) => log.warn({ err: error }, 'inbound mail listener'));

  return {
    /** Listens on the settings' port (0: any free port); answers the port. */
    async listen(port = settings.port): Promise<number> {
      server.listen(port, settings.host);
      await once(server.server, 'listening');
      const bound = (server.server.address() as AddressInfo).port;
      log.info(`inbound mail listener for replies to lost pet alerts at ${settings.domain}, port ${bound}`);
      return bound;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
