import { alertCheckoutSchema, alertEmailTokenParams, alertIdParams, alertPreferencesTokenParams, openPixelParams, sendPetAlertSchema } from '@petreg/contract';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { answer, perIp, perUser } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import { unknownUnsubscribePage, unsubscribeConfirmPage, unsubscribedPage } from './pages.js';
import { preferencesPage, unknownPreferencesPage } from './preferencePages.js';
import type { PreferencesFormValues } from './preferences.js';
import type { AlertService } from './service.js';
import { openPixel } from './tracking.js';

const MINUTE = 60_000;
/**
 * The e-mail addresses need no sign-in. A mail provider's image proxy loads many recipients' pixels
 * from a few addresses, so the pixel allows far more than a person clicking unsubscribe does.
 */
const rateLimits = {
  pixel: { max: 600, window: MINUTE },
  unsubscribe: { max: 30, window: MINUTE },
  preferences: { max: 30, window: MINUTE },
  /** An alert e-mails every professional within 50 miles: an account sends a handful, not a stream. */
  send: { max: 10, window: 60 * MINUTE },
};

/**
 * The one-click unsubscribe POST (RFC 8058) comes form-encoded, its only field saying what it is; so
 * does the preferences page's form, a few short fields and a box per species.
 */
const formBodyLimit = 2048;

/** A form's fields; a name given more than once (the species boxes) keeps every value. */
function formFields(body: string): PreferencesFormValues {
  const fields: Record<string, string | string[]> = {};
  for (const [name, value] of new URLSearchParams(body)) {
    const before = fields[name];
    fields[name] = before === undefined ? value : [before, value].flat();
  }
  return fields;
}

export const alertRoutes: FastifyPluginAsyncZod<{ alerts: AlertService }> = async (app, { alerts }) => {
  const tags = ['Alerts'];

  app.post(
    '/petalert/send-mail-from-pet-alert',
    { schema: { tags, body: sendPetAlertSchema }, config: { auth: 'signedIn', ...perUser(rateLimits.send) } },
    async (request) => answer(await alerts.send(sessionOf(request), request.body)),
  );

  app.post('/checkout/checkout-lpa', { schema: { tags, body: alertCheckoutSchema }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await alerts.checkout(sessionOf(request), request.body.petId)),
  );

  app.get('/petalert/alert-price', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await alerts.alertPrices(sessionOf(request))),
  );

  app.get('/petalert/alerts/bypet/:id', { schema: { tags, params: alertIdParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await alerts.currentAlert(sessionOf(request), request.params.id)),
  );

  app.get('/email/:id/getEmailStats', { schema: { tags, params: alertIdParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await alerts.emailStats(sessionOf(request), request.params.id)),
  );

  app.put('/pet/mark-as-found/:id', { schema: { tags, params: alertIdParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await alerts.markAsFound(sessionOf(request), request.params.id)),
  );

  // The open pixel: answered the same for any token, so it tells nothing about which tokens exist.
  app.get('/email/open/:file', { schema: { tags, params: openPixelParams, hide: true }, config: perIp(rateLimits.pixel) }, async (request, reply) => {
    await alerts.recordOpen(request.params.file.slice(0, -'.gif'.length).toLowerCase(), request.headers['user-agent']);
    return reply.type('image/gif').header('cache-control', 'no-store, max-age=0').send(openPixel);
  });

  // Opened in a browser (or by a mail scanner): a page with a button; nothing changes.
  app.get(
    '/email/unsubscribe/:token',
    { schema: { tags, params: alertEmailTokenParams, hide: true }, config: { ...perIp(rateLimits.unsubscribe), document: true } },
    async (request, reply) => {
      const email = await alerts.recipientOf(request.params.token.toLowerCase());
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      return email ? reply.send(unsubscribeConfirmPage(email)) : reply.status(404).send(unknownUnsubscribePage());
    },
  );

  await app.register(async (form) => {
    form.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string', bodyLimit: formBodyLimit }, (_request, body, done) =>
      done(null, formFields(body as string)),
    );
    // The mail client's one-click POST, or the page's button: unsubscribed at once.
    form.withTypeProvider<ZodTypeProvider>().post(
      '/email/unsubscribe/:token',
      { schema: { tags, params: alertEmailTokenParams, hide: true }, config: { ...perIp(rateLimits.unsubscribe), document: true }, bodyLimit: formBodyLimit },
      async (request, reply) => {
        const email = await alerts.unsubscribe(request.params.token.toLowerCase());
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        return email ? reply.send(unsubscribedPage(email)) : reply.status(404).send(unknownUnsubscribePage());
      },
    );
    // The preferences page's form: saved, or shown again with its messages (400).
    form.withTypeProvider<ZodTypeProvider>().post(
      '/email/preferences/:token',
      { schema: { tags, params: alertPreferencesTokenParams, hide: true }, config: { ...perIp(rateLimits.preferences), document: true }, bodyLimit: formBodyLimit },
      async (request, reply) => {
        const body = (request.body ?? {}) as PreferencesFormValues;
        const outcome = await alerts.savePreferences(request.params.token, typeof body === 'object' ? body : {}, new Date());
        reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
        if (!outcome) return reply.status(404).send(unknownPreferencesPage());
        return reply.status(outcome.saved ? 200 : 400).send(preferencesPage(outcome.view, outcome));
      },
    );
  });

  // The signed preferences link of an alert e-mail: the address's choices, in a form; a GET changes nothing.
  app.get(
    '/email/preferences/:token',
    { schema: { tags, params: alertPreferencesTokenParams, hide: true }, config: { ...perIp(rateLimits.preferences), document: true } },
    async (request, reply) => {
      const view = await alerts.preferencesOf(request.params.token, new Date());
      reply.type('text/html; charset=utf-8').header('cache-control', 'no-store');
      return view ? reply.send(preferencesPage(view)) : reply.status(404).send(unknownPreferencesPage());
    },
  );
};
