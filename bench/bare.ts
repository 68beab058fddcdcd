// The yardstick of bench/public.ts: one Fastify route answering a small JSON envelope, nothing else,
// in a process of its own (as the portal runs in its own). With BARE_FILE, a second route sends that
// file's bytes from memory as brotli (the built script's .br copy): the yardstick of a large asset,
// whose speed the bytes bound. Listens on BARE_PORT (a free port by default) and prints the port once it does.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ succeeded: true, result: { ok: true }, errors: [] }));
const file = process.env.BARE_FILE ? readFileSync(process.env.BARE_FILE) : null;
if (file) app.get('/bare-file', (_request, reply) => reply.header('content-encoding', 'br').type('text/javascript').send(file));
await app.listen({ port: Number(process.env.BARE_PORT ?? 0), host: '127.0.0.1' });
console.log((app.server.address() as { port: number }).port);
