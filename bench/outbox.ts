// The account e-mails' outbox during a burst: BENCH_SIGNUPS owners sign up (ten at a time, each mailed
// a confirmation link), and right after the last one a finder reports a registered pet found, whose
// owner is mailed through the same outbox. The mail server is a local `smtp-server` that answers each
// message after BENCH_SMTP_MS (200: a provider's pace; over the transport's 5 pooled connections, about
// 25 messages a second), so the confirmations queue up as they would at a real provider. Measured: when
// the found report's e-mail and the last confirmation were taken by the mail server, counted from the
// report and from the last sign-up; every confirmation is checked to arrive once. The portal runs as
// `npm start` runs it (the build, its own process, a fresh data folder), with SMTP_URL pointing at the
// local server.
// Run: npm run build && npm run bench:outbox   (BENCH_SIGNUPS=1000, BENCH_SMTP_MS=200; DATABASE_URL=postgres://… adds a PostgreSQL server)
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
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
      const owner = await registerPet(portal.origin, { email: `bench-outbox-owner-${Date.now()}@example.com` });
      await until(() => sink.received.length > 0 && sink.received.at(-1)!.to.startsWith('bench-outbox-owner-'));
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
      await api(portal.origin, 'POST', 'public/found-report', {
        publicId: owner.publicId,
        name: 'Finder',
        phone: '',
        email: 'finder@example.net',
        message: 'Found this dog by the park, friendly, no collar.',
        where: '63101',
      });
      const reported = performance.now();

      const signUps = new Set(emails);
      const confirmed = new Map<string, number>();
      let reportAt: number | undefined;
      let read = before;
      await until(() => {
        for (; read < sink.received.length; read++) {
          const mail = sink.received[read]!;
          if (signUps.has(mail.to)) confirmed.set(mail.to, (confirmed.get(mail.to) ?? 0) + 1);
          else if (mail.subject === 'Someone found Biscuit') reportAt = mail.at;
        }
        return reportAt !== undefined && confirmed.size === SIGNUPS;
      });
      const lastConfirmation = Math.max(...sink.received.slice(before).filter((m) => signUps.has(m.to)).map((m) => m.at));
      const twice = [...confirmed.values()].filter((n) => n > 1).length;
      const reportS = (reportAt! - reported) / 1000;
      console.log(
        `${label}: ${SIGNUPS} sign-ups in ${((signedUp - started) / 1000).toFixed(1)} s, ${confirmedBefore} of their confirmations taken by then (mail server ${SMTP_MS} ms a message);` +
          ` the report answered in ${(reported - signedUp).toFixed(0)} ms, its e-mail ${reportS.toFixed(1)} s after (target ${TARGET_REPORT_S} s: ${reportS <= TARGET_REPORT_S ? 'met' : 'NOT met'});` +
          ` the last confirmation ${((lastConfirmation - signedUp) / 1000).toFixed(1)} s after the last sign-up; confirmations sent twice: ${twice}; load average ${loadavg()[0]!.toFixed(1)}`,
      );
    } finally {
      await portal.stop();
    }
  });
} finally {
  await sink.close();
}
