// The account e-mails' outbox after a burst: BENCH_SIGNUPS owners sign up (ten at a time, each mailed
// a confirmation link), and right after the last one a finder reports a registered pet found, whose
// owner is mailed through the same outbox. Measured: when the last confirmation and the found report's
// e-mail reach a local SMTP server (`smtp-server`), counted from the last sign-up and from the report.
// The portal runs as `npm start` runs it (the build, its own process, a fresh data folder), with
// SMTP_URL pointing at the local server.
// Run: npm run build && npm run bench:outbox   (BENCH_SIGNUPS=1000; DATABASE_URL=postgres://… adds a PostgreSQL server)
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { setTimeout as sleep } from 'node:timers/promises';
import { smtpSink } from '../server/test/smtpSink.js';
import { api, registerPet, requireBuild } from './builtPortal.js';
import { onEachDatabase, ROOT, startPortal } from './outside.js';

const SIGNUPS = Number(process.env.BENCH_SIGNUPS ?? 1000);
/** A found report's e-mail is due in seconds, burst or not. */
const TARGET_REPORT_S = 10;

requireBuild();
const sink = await smtpSink();

/** Waits until the local server took a message that `matches`; answers when it saw it (polled every 10 ms). */
async function arrival(matches: (message: { to: string; subject: string }) => boolean, withinMs = 600_000): Promise<number> {
  const until = performance.now() + withinMs;
  while (performance.now() < until) {
    if (sink.received.some(matches)) return performance.now();
    await sleep(10);
  }
  throw new Error('no such e-mail reached the mail server within ten minutes');
}

try {
  await onEachDatabase(async (label, dataDir, databaseUrl) => {
    const portal = await startPortal(ROOT, dataDir, databaseUrl, { SMTP_URL: sink.url });
    try {
      const owner = await registerPet(portal.origin, { email: `bench-outbox-owner-${Date.now()}@example.com` });
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
      await api(portal.origin, 'POST', 'public/found-report', {
        publicId: owner.publicId,
        name: 'Finder',
        phone: '',
        email: 'finder@example.net',
        message: 'Found this dog by the park, friendly, no collar.',
        where: '63101',
      });
      const reported = performance.now();
      const reportMailed = await arrival((m) => m.subject === 'Someone found Biscuit');
      const confirmed = new Set(emails);
      const lastConfirmation = await arrival(() => sink.received.filter((m) => confirmed.has(m.to)).length >= SIGNUPS);
      const reportS = (reportMailed - reported) / 1000;
      console.log(
        `${label}: ${SIGNUPS} sign-ups in ${((signedUp - started) / 1000).toFixed(1)} s; the last confirmation ${((lastConfirmation - signedUp) / 1000).toFixed(1)} s after the last sign-up;` +
          ` the found report's e-mail ${reportS.toFixed(1)} s after the report (target ${TARGET_REPORT_S} s: ${reportS <= TARGET_REPORT_S ? 'met' : 'NOT met'}); load average ${loadavg()[0]!.toFixed(1)}`,
      );
    } finally {
      await portal.stop();
    }
  });
} finally {
  await sink.close();
}
