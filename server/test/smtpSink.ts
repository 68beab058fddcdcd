import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { freePort } from './helpers.js';

/**
 * A local mail server that takes every message, each `delayMs` after its data arrived (a slow
 * peer, so that a run of e-mails is still going when a test acts), and records its recipient,
 * subject and moment taken (`performance.now()`) in the order taken.
 */
export async function smtpSink(delayMs = 0) {
  const received: { to: string; subject: string; at: number }[] = [];
  // While held, a message is answered only once released (then after its delay).
  let released: Promise<void> = Promise.resolve();
  let release = () => {};
  const server = new SMTPServer({
    disabledCommands: ['STARTTLS', 'AUTH'],
    logger: false,
    closeTimeout: 100,
    onData(stream, session, callback) {
      simpleParser(stream)
        .then(async (mail) => {
          await released;
          return mail;
        })
        .then((mail) =>
          setTimeout(() => {
            for (const to of session.envelope.rcptTo) received.push({ to: to.address.toLowerCase(), subject: mail.subject ?? '', at: performance.now() });
            callback();
          }, delayMs),
        )
        .catch(callback);
    },
  });
  // A connection cut by a sender that died (the tests kill the portal) is no fault of the server.
  server.on('error', () => {});
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Answers no message from now on until `release`: a run of e-mails stays in the middle as long as a test needs. */
    hold() {
      released = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    /** How many messages each of the addresses got. */
    countsFor(addresses: string[]) {
      const wanted = new Set(addresses);
      const counts = new Map(addresses.map((address) => [address, 0]));
      for (const { to } of received) if (wanted.has(to)) counts.set(to, counts.get(to)! + 1);
      return counts;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
