import { once } from 'node:events';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';

/** The account the local Twilio answers for. */
export const accountSid = `AC${'0123456789abcdef'.repeat(2)}`;

/**
 * What the local Twilio answers a message: Twilio's JSON, a hang before taking it (a slow provider),
 * or taking the message and then hanging (its answer lost: the sender cannot know it went).
 */
type Answer = { status: number; json: unknown } | 'hang' | 'accept-then-hang';
export interface Received {
  path: string;
  /** When it arrived (performance.now()). */
  at: number;
  form: URLSearchParams;
  authorization: string | undefined;
}

/** A message as Twilio's API shows it (the fields the portal reads, and a few more). */
interface TwilioMessage {
  sid: string;
  status: string;
  to: string | null;
  from: string | null;
  body: string | null;
  account_sid: string;
  /** RFC 2822, as Twilio writes it. */
  date_created: string;
}

const rfc2822 = (date: Date) => date.toUTCString().replace(/GMT$/, '+0000');

/**
 * A local server answering Twilio's Messages API as documented: POST
 * /2010-04-01/Accounts/{sid}/Messages.json, 201 with the message (sid, status queued), or an error
 * {code, message, more_info, status}; GET of the same path lists the messages it took, newest first,
 * filtered by To and From, in Twilio's page shape. `lookups` answers the GETs (an error, say).
 */
export async function localTwilio() {
  const received: Received[] = [];
  const taken: TwilioMessage[] = [];
  const listed: Received[] = [];
  let answer: (form: URLSearchParams) => Answer = () => ({ status: 201, json: {} });
  let lookups: () => { status: number; json: unknown } | 'list' = () => 'list';
  const hanging = new Set<ServerResponse>();
  let serial = 0;
  const take = (form: URLSearchParams): TwilioMessage => {
    const message = {
      sid: `SM${String(++serial).padStart(32, '0')}`,
      status: 'queued',
      to: form.get('To'),
      from: form.get('From'),
      body: form.get('Body'),
      account_sid: accountSid,
      date_created: rfc2822(new Date()),
    };
    taken.unshift(message);
    return message;
  };
  const list = (url: URL, response: ServerResponse) => {
    const given = lookups();
    if (given !== 'list') return response.writeHead(given.status, { 'content-type': 'application/json' }).end(JSON.stringify(given.json));
    const pageSize = Number(url.searchParams.get('PageSize') ?? 50);
    const messages = taken
      .filter((m) => ['To', 'From'].every((field) => !url.searchParams.has(field) || m[field === 'To' ? 'to' : 'from'] === url.searchParams.get(field)))
      .slice(0, pageSize);
    const uri = `${url.pathname}${url.search}`;
    const page = { first_page_uri: uri, end: messages.length - 1, previous_page_uri: null, messages, uri, page_size: pageSize, start: 0, next_page_uri: null, page: 0 };
    response.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(page));
  };
  const server: Server = createServer((request: IncomingMessage, response: ServerResponse) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString()));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://local');
      const form = new URLSearchParams(body);
      const record = { path: url.pathname, at: performance.now(), form, authorization: request.headers.authorization };
      if (request.method === 'GET') {
        listed.push({ ...record, form: url.searchParams });
        return list(url, response);
      }
      received.push(record);
      const given = answer(form);
      if (given === 'hang' || given === 'accept-then-hang') {
        if (given === 'accept-then-hang') take(form);
        hanging.add(response);
        return;
      }
      const json = given.status === 201 ? take(form) : given.json;
      response.writeHead(given.status, { 'content-type': 'application/json' }).end(JSON.stringify(json));
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    /** The messages POSTed, whatever the answer; the messages taken (newest first); the lookups (GET) made. */
    received,
    taken,
    listed,
    answer: (next: typeof answer) => (answer = next),
    lookups: (next: typeof lookups) => (lookups = next),
    async close() {
      for (const response of hanging) response.destroy();
      server.closeAllConnections();
      server.close();
      await once(server, 'close');
    },
  };
}

