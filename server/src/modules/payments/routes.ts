import {
  billingDashboardQuerySchema,
  cardSchema,
  checkoutQuerySchema,
  idParams,
  sessionIdParams as sessionParams,
  updatePlanSchema,
} from '@petreg/contract';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { answer, webhookBodyLimit } from '../../http.js';
import { sessionOf } from '../../plugins/auth.js';
import type { PaymentService } from './service.js';

export const paymentRoutes: FastifyPluginAsyncZod<{ payments: PaymentService; localCheckout: boolean }> = async (
  app,
  { payments, localCheckout },
) => {
  const tags = ['Payments'];

  app.get('/pet/plans', { schema: { tags } }, async () => answer(await payments.plans()));

  app.get('/pet/collar-tag-plan', { schema: { tags } }, async () => answer(await payments.collarTagPlan()));

  app.put('/Pet/update-plan', { schema: { tags, body: updatePlanSchema }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await payments.updatePlan(sessionOf(request), request.body.id, request.body.planId)),
  );

  // The path keeps the provider's name whichever provider is configured.
  app.get(
    '/checkout/stripe-subscription/:id',
    { schema: { tags, params: idParams, querystring: checkoutQuerySchema }, config: { auth: 'signedIn' } },
    async (request) => answer(await payments.startCheckout(sessionOf(request), request.params.id, request.query)),
  );

  app.post('/checkout/upgrade-subscription/:id', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await payments.upgrade(sessionOf(request), request.params.id)),
  );

  app.get('/checkout/lifetime-price/:id', { schema: { tags, params: idParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await payments.lifetimePrice(sessionOf(request), request.params.id)),
  );

  app.get('/payment/complete/:sessionId', { schema: { tags, params: sessionParams }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await payments.completionFor(sessionOf(request), request.params.sessionId)),
  );

  app.get('/pet/microchip-subscriptions', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await payments.subscriptions(sessionOf(request))),
  );

  app.get('/payment/billing', { schema: { tags }, config: { auth: 'signedIn' } }, async (request) =>
    answer(await payments.billing(sessionOf(request))),
  );

  app.post('/payment/subscriptions/:sessionId/cancel', { schema: { tags, params: sessionParams }, config: { auth: 'signedIn' } }, async (request) => {
    await payments.cancelSubscription(sessionOf(request), request.params.sessionId);
    return answer(true);
  });

  app.get(
    '/utilities/stripe-dashboard',
    { schema: { tags, querystring: billingDashboardQuerySchema }, config: { auth: 'signedIn' } },
    async (request) => answer(await payments.billingDashboardUrl(sessionOf(request), request.query.uid)),
  );

  app.get('/admin/payments-to-refund', { schema: { tags }, config: { auth: ['admin'] } }, async () => answer(await payments.paymentsToRefund()));

  app.post('/admin/payments-to-refund/:id/refunded', { schema: { tags, params: idParams }, config: { auth: ['admin'] } }, async (request) =>
    answer(await payments.markRefunded(sessionOf(request), request.params.id)),
  );

  if (localCheckout) {
    app.get('/checkout/local/:sessionId', { schema: { tags, params: sessionParams }, config: { auth: 'signedIn' } }, async (request) =>
      answer(await payments.localOrder(sessionOf(request), request.params.sessionId)),
    );
    app.post(
      '/checkout/local/:sessionId/pay',
      { schema: { tags, params: sessionParams, body: cardSchema }, config: { auth: 'signedIn' } },
      async (request) => answer(await payments.payLocal(sessionOf(request), request.params.sessionId, request.body)),
    );
    app.post('/checkout/local/:sessionId/cancel', { schema: { tags, params: sessionParams }, config: { auth: 'signedIn' } }, async (request) =>
      answer(await payments.cancelLocal(sessionOf(request), request.params.sessionId)),
    );
  }

  // The provider's webhook: the signature is checked over the exact bytes received.
  await app.register(async (raw) => {
    raw.removeContentTypeParser('application/json');
    raw.addContentTypeParser('application/json', { parseAs: 'buffer' }, (_request, body, done) => done(null, body));
    raw.post('/payment/webhook', { schema: { tags, hide: true }, bodyLimit: webhookBodyLimit }, async (request) => {
      await payments.handleWebhook(request.body as Buffer, request.headers['stripe-signature'] as string | undefined);
      return answer(true);
    });
  });
};
