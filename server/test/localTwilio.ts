import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The account the local Twilio answers for. */
export const accountSid = `AC${'0123456789abcdef'.repeat(2)}`;

/** What the local Twilio answers a message: Twilio's JSON, a hang (a slow provider), or a dropped connection. */
type Answer = { status: number; json: unknown } | 'hang';
export interface Received {
  path: string;
  /** When it arrived (performance.now()). */
  at: number;
  form: URLSearchParams;
  authorization: string | undefined;
}

/**
 * A local server answering Twilio's Messages API as documented: POST
 * /2010-04-01/Accounts/{sid}/Messages.json, 201 with the message (sid, status queued), or an error
 * {code, message, more_info, status}.
 */
export async function localTwilio() {
  const received: Received[] = [];
  let answer: (form: URLSearchParams) => Answer = () => ({ status: 201, json: {} });
  const hanging = new Set<ServerResponse>();
  let serial = 0;
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const form = new URLSearchParams(body);
      received.push({ path: request.url ?? '', at: performance.now(), form, authorization: request.headers.authorization });
      const given = answer(form);
      if (given === 'hang') {
        hanging.add(response);
        return;
      }
      const json =
        given.status === 201
          ? { sid: `SM${String(++serial).padStart(32, '0')}`, status: 'queued', to: form.get('To'), from: form.get('From'), body: form.get('Body'), account_sid: accountSid }
          : given.json;
      response.writeHead(given.status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    received,
    answer: (next: typeof answer) => (answer = next),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

