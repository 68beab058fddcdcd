// The yardstick of bench/public.ts: one Fastify route answering a small JSON envelope, nothing else,
// in a process of its own (as the portal runs in its own). With BARE_FILE, /bare-file sends that file's
// bytes from memory as brotli (the built script's .br copy), and with BARE_PAGE, /bare-page sends a
// page's brotli bytes as HTML (the lookup page as the portal sent them): the yardsticks of answers whose
// bytes bound their speed, at the load generator as much as at the server. Listens on BARE_PORT (a free
// port by default) and prints the port once it does.
import { readFileSync } from 'node:fs';
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ succeeded: true, result: { ok: true }, errors: [] }));
for (const [path, file, type] of [
  ['/bare-file', process.env.BARE_FILE, 'text/javascript'],
  ['/bare-page', process.env.BARE_PAGE, 'text/html; charset=utf-8'],
] as const) {
  const bytes = file ? readFileSync(file) : null;
  if (bytes) app.get(path, (_request, reply) => reply.header('content-encoding', 'br').type(type).send(bytes));
}
await app.listen({ port: Number(process.env.BARE_PORT ?? 0), host: '127.0.0.1' });
console.log((app.server.address() as { port: number }).port);
