import formBody from '@fastify/formbody';
import { failure, messages } from '@petreg/contract';
import type { FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { TextReplies } from './replies.js';

/** Twilio's form fields the portal reads; Twilio sends many more, which are signed too and left as they are. */
const statusReport = z.looseObject({
  MessageSid: z.string().min(1).max(64),
  MessageStatus: z.string().min(1).max(40),
  ErrorCode: z.string().max(10).optional(),
});
const inboundMessage = z.looseObject({
  From: z.string().max(40).default(''),
  Body: z.string().max(1600).default(''),
});

/** An empty TwiML answer: the portal texts nothing back (Twilio itself answers STOP and START). */
const emptyTwiml = '<?xml version="1.0" encoding="UTF-8"?><Response/>';

/**
 * Twilio's webhooks (POST sms/status, POST sms/inbound): form bodies, each signed with the account's
 * auth token over the address Twilio was given (PUBLIC_URL and the path) and the fields. The form
 * parser stays inside these routes.
 */
export const smsWebhookRoutes: FastifyPluginAsyncZod<{ replies: TextReplies; authToken: string; publicUrl: string }> = async (
  app,
  { replies, authToken, publicUrl },
) => {
  // Registered only when Twilio is configured: the SDK (a sixth of a second to load) is loaded then.
  const { validateRequest } = (await import('twilio')).default;
  await app.register(formBody, { bodyLimit: 64 * 1024 });
  const tags = ['SMS webhooks (Twilio)'];

  app.addHook('preValidation', async (request: FastifyRequest, reply) => {
    const signature = request.headers['x-twilio-signature'];
    const params = (request.body ?? {}) as Record<string, string>;
    const signed = typeof signature === 'string' && validateRequest(authToken, signature, `${publicUrl}${request.url}`, params);
    if (!signed) return reply.status(403).send(failure([messages.smsSignatureInvalid]));
  });

  app.post('/sms/status', { schema: { tags, body: statusReport } }, async (request, reply) => {
    const { MessageSid, MessageStatus, ErrorCode } = request.body;
    await replies.recordDelivery({ sid: MessageSid, status: MessageStatus, errorCode: ErrorCode || undefined });
    // Twilio needs no more than a 2xx; an unknown SID changes nothing and is not retried.
    return reply.status(204).send();
  });

  app.post('/sms/inbound', { schema: { tags, body: inboundMessage } }, async (request, reply) => {
    await replies.receive({ from: request.body.From, body: request.body.Body });
    return reply.type('text/xml').send(emptyTwiml);
  });
};
