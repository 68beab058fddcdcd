import type { FastifyInstance } from 'fastify';
import type { Mailer } from '../adapters/mail/index.js';
import type { Texter } from '../adapters/sms/index.js';
import type { Database } from '../db/client.js';
import { isDatabaseUnavailable } from '../db/errors.js';
import { loggable } from '../errors.js';
import { sweepSignInAttempts } from '../modules/users/signIn.js';
import { sweepRateLimitCounters } from '../rateLimitStore.js';
import type { AlertMailSettings } from '../modules/alerts/messages.js';
import { askOwnersToConfirmContacts, type OwnerCheckSettings } from '../modules/contacts/ownerCheckSweep.js';
import { escalateFoundReports, type EscalationSettings } from '../modules/foundReports/escalation.js';
import { expirePetTransfers } from '../modules/pets/transferExpiry.js';
import { sendReminders, type ReminderSettings } from '../modules/reminders/service.js';
import { sendDueAlertEmails } from './alertEmails.js';
import { sendDueMail } from './outbox.js';
import { sendDueTexts } from './texts.js';

/** Account e-mails are looked for every second: an e-mail from a finder waits at most for the batch in hand and a second. */
const MAIL_EVERY_MS = 1000;
const ALERT_EMAILS_EVERY_MS = 5000;
/** Texts are looked for every second: a finder's report reaches the owner's phone within seconds. */
const TEXTS_EVERY_MS = 1000;
const RETRY_EVERY_MS = 60_000;
/** Found reports nobody opened are looked at every minute: their delays are counted in minutes. */
const ESCALATION_EVERY_MS = 60_000;
/** Owners' transfer offers past their 7 days are looked for every minute. */
const TRANSFER_EXPIRY_EVERY_MS = 60_000;
/** Owners due "Is this still how we reach you?" are looked for every minute: a bounce or a failed text is followed up at once. */
const CONTACT_CHECK_EVERY_MS = 60_000;
const SWEEP_EVERY_MS = 24 * 3600_000;
/** Reminders are looked for every hour: each is due on a day, and its unique key keeps it from going twice. */
const REMINDERS_EVERY_MS = 3600_000;

/**
 * Background work beside the HTTP server: the mail outbox, the alert e-mails, the texts, the found
 * reports nobody opened, owners' transfer offers past their time, owners due a check of their
 * contacts, provider calls to retry, closed accounts' photos to delete, the owners' reminders and the
 * daily expiry sweep. Returns a stop function for graceful shutdown: no e-mail is started after it, the
 * e-mails claimed and not started are handed back for another instance, and it resolves once those in
 * flight are through.
 */
export function startWorker(
  app: FastifyInstance,
  db: Database,
  mailer: Mailer,
  texter: Texter,
  alertMail: AlertMailSettings,
  escalation: EscalationSettings,
  /** What the mails the worker writes to owners (reminders, contact checks) link to and sign with. */
  ownerMail: ReminderSettings & OwnerCheckSettings,
): () => Promise<void> {
  // Each job runs on its own: a long alert run does not hold up a password reset or a receipt. A tick
  // that finds its job's previous round still going is skipped rather than queued behind it.
  const rounds = new Set<Promise<void>>();
  const stopping = new AbortController();
  const run = (name: string, job: () => Promise<unknown>) => {
    let busy = false;
    return () => {
      if (busy) return;
      busy = true;
      const round = job()
        .then(
          () => undefined,
          (error: unknown) => {
            app.log.error({ err: loggable(error) }, `${name} failed`);
            // A database out of reach (a restart, a failover) is expected, as the requests' 503s are: the next round tries again.
            if (!isDatabaseUnavailable(error)) app.errorReports.job(error, name);
          },
        )
        .finally(() => {
          busy = false;
          rounds.delete(round);
        });
      rounds.add(round);
    };
  };
  const emailResults = app.metrics.sends('email');
  const textResults = app.metrics.sends('sms');
  const sendMail = run('mail outbox', () => sendDueMail(db, mailer, undefined, stopping.signal, emailResults));
  const sendAlerts = run('alert e-mails', async () => {
    const sent = await sendDueAlertEmails(db, mailer, alertMail, undefined, stopping.signal, emailResults);
    if (sent.delivered || sent.bounced || sent.retried || sent.waiting) app.log.info(sent, 'alert e-mails sent');
  });
  const sendTexts = run('texts', async () => {
    const sent = await sendDueTexts(db, texter, undefined, stopping.signal, textResults);
    if (sent.sent || sent.canceled) app.log.info(sent, 'texts sent');
  });
  const escalate = run('found report escalation', async () => {
    const told = await escalateFoundReports(db, escalation);
    if (told.backupReports || told.vetReports) app.log.info(told, 'found reports nobody opened were escalated');
  });
  const expireTransfers = run('transfer offer expiry', async () => {
    const expired = await expirePetTransfers(db);
    if (expired) app.log.info(`transfer offers expired: ${expired}`);
  });
  const checkContacts = run('contact checks', async () => {
    const { asked } = await askOwnersToConfirmContacts(db, ownerMail);
    if (asked) app.log.info({ asked }, 'owners asked whether their contacts still reach them');
  });
  const stopReplaced = run('replaced subscriptions', () => app.payments.stopReplacedSubscriptions());
  const deleteDiscarded = run('discarded photos', async () => {
    const { deleted, left } = await app.deleteDiscardedFiles();
    if (deleted || left) app.log.info({ deleted, left }, "closed accounts' photos deleted");
  });
  const sweep = run('expiry sweep', async () => {
    const expired = await app.payments.expireLapsedRegistrations();
    if (expired) app.log.info(`expiry sweep: ${expired} yearly registrations lapsed`);
    await sweepSignInAttempts(db);
    await sweepRateLimitCounters(db);
  });
  const remind = run('reminders', async () => {
    const queued = await sendReminders(db, ownerMail);
    if (queued.renewals || queued.chipScans) app.log.info(queued, 'reminders queued');
  });
  // At start rather than at their first tick: what came due while no worker ran (a found report left unopened) waits no longer.
  sweep();
  remind();
  escalate();
  const timers = [
    setInterval(sendMail, MAIL_EVERY_MS),
    setInterval(sendAlerts, ALERT_EMAILS_EVERY_MS),
    setInterval(sendTexts, TEXTS_EVERY_MS),
    setInterval(escalate, ESCALATION_EVERY_MS),
    setInterval(expireTransfers, TRANSFER_EXPIRY_EVERY_MS),
    setInterval(checkContacts, CONTACT_CHECK_EVERY_MS),
    setInterval(stopReplaced, RETRY_EVERY_MS),
    setInterval(deleteDiscarded, RETRY_EVERY_MS),
    setInterval(sweep, SWEEP_EVERY_MS),
    setInterval(remind, REMINDERS_EVERY_MS),
  ];
  return async () => {
    stopping.abort();
    timers.forEach(clearInterval);
    await Promise.all(rounds);
  };
}
