// The account e-mails' outbox during a burst: BENCH_SIGNUPS owners sign up (ten at a time, each mailed
// a confirmation link), and right after the last one a finder reports a registered pet found, whose
// owner is mailed through the same outbox. The mail server is a local `smtp-server` that answers each
// message after BENCH_SMTP_MS (200: a provider's pace; over the transport's 5 pooled connections, about
// 25 messages a second), so the confirmations queue up as they would at a real provider. Measured: when
// the found report's e-mail and the last confirmation were taken by the mail server, counted from the
// finder's tap and from the last sign-up; every confirmation is checked to arrive once, watched for a
// claim's lease after the last (a claim that ran out would send one again then). The portal runs as
// `npm start` runs it (the build, its own process, a fresh data folder), with SMTP_URL pointing at the
// local server.
// Run: npm run build && npm run bench:outbox   (BENCH_SIGNUPS=1000, BENCH_SMTP_MS=200; DATABASE_URL=postgres://… adds a PostgreSQL server)
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { LEASE_MS } from '../server/src/worker/outbox.js';
import { smtpSink } from '../server/test/smtpSink.js';
import { api, registerPet, requireBuild } from './builtPortal.js';
import { onEachDatabase, ROOT, startPortal } from './outside.js';

const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 1000);
const SMTP_MS = Number(process.env.BENCH_SMTP_MS ?? 200);
/** A finder's report reaches the owner's inbox within seconds, whatever else is queued. */
const TARGET_REPORT_S = 10;
const WITHIN_MS = 15 * 60_000;

requireBuild();
const sink = await smtpSink(SMTP_MS);

/** Waits until `done` says so, looking every 50 ms. */
async function until(done: () => boolean) {
  const giveUp = performance.now() + WITHIN_MS;
  while (!done()) {
    if (performance.now() > giveUp) throw new Error(`the e-mails did not all reach the mail server within ${WITHIN_MS / 60_000} minutes`);
    await sleep(50);
  }
}

try {
  await onEachDatabase(async (label, dataDir, databaseUrl) => {
    const portal = await startPortal(ROOT, dataDir, databaseUrl, { SMTP_URL: sink.url });
    try {
      const ownerEmail = `bench-outbox-owner-${Date.now()}@example.com`;
      const owner = await registerPet(portal.origin, { email: ownerEmail });
      // The owner's own e-mails (confirmation, receipt) are through before the burst.
      await until(() => sink.received.filter((m) => m.to === ownerEmail).length >= 2);
      const before = sink.received.length;
      const emails = Array.from({ length: SIGNUPS }, (_, i) => `bench-outbox-${Date.now()}-${i}@example.com`);
      const started = performance.now();
      for (let i = 0; i < SIGNUPS; i += 10) {
        await Promise.all(
          emails.slice(i, i + 10).map((email) =>
            api(portal.origin, 'POST', 'Users/signup', { email, password: 'Bench#Pass1', firstName: 'Bench', lastName: 'Mark', phoneNumber: '(415) 555-2671' }),
          ),
        );
      }
      const signedUp = performance.now();
      const confirmedBefore = new Set(sink.received.slice(before).map((m) => m.to)).size;
      const tapped = performance.now();
      await api(portal.origin, 'POST', 'public/found-report', {
        publicId: owner.publicId,
        name: 'Finder',
        phone: '',
        email: 'finder@example.net',
        message: 'Found this dog by the park, friendly, no collar.',
        where: '63101',
      });
      const answered = performance.now();

      const signUps = new Set(emails);
      const confirmed = new Map<string, number>();
      let reportAt: number | undefined;
      let read = before;
      await until(() => {
        for (; read < sink.received.length; read++) {
          const mail = sink.received[read]!;
          if (signUps.has(mail.to)) confirmed.set(mail.to, (confirmed.get(mail.to) ?? 0) + 1);
          else if (mail.to === ownerEmail && mail.subject === 'Someone found Biscuit') reportAt ??= mail.at;
        }
        return reportAt !== undefined && confirmed.size === SIGNUPS;
      });
      const lastConfirmation = sink.received.slice(before).reduce((last, m) => (signUps.has(m.to) ? Math.max(last, m.at) : last), 0);
      await sleep(LEASE_MS + 5000);
      for (; read < sink.received.length; read++) {
        const mail = sink.received[read]!;
        if (signUps.has(mail.to)) confirmed.set(mail.to, confirmed.get(mail.to)! + 1);
      }
      const twice = [...confirmed.values()].filter((n) => n > 1).length;
      const reportS = (reportAt! - tapped) / 1000;
      console.log(
        `${label}: ${SIGNUPS} sign-ups in ${((signedUp - started) / 1000).toFixed(1)} s, ${confirmedBefore} of their confirmations taken by then (mail server ${SMTP_MS} ms a message);` +
          ` the report answered in ${(answered - tapped).toFixed(0)} ms, its e-mail ${reportS.toFixed(1)} s after the tap (target ${TARGET_REPORT_S} s: ${reportS <= TARGET_REPORT_S ? 'met' : 'NOT met'});` +
          ` the last confirmation ${((lastConfirmation - signedUp) / 1000).toFixed(1)} s after the last sign-up; confirmations sent twice: ${twice}; load average ${loadavg()[0]!.toFixed(1)}`,
      );
    } finally {
      await portal.stop();
    }
  });
} finally {
  await sink.close();
}
