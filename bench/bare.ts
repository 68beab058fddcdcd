// The yardstick of bench/public.ts: one Fastify route answering a small JSON envelope, nothing else,
// in a process of its own (as the portal runs in its own). Prints its port once it listens.
import Fastify from 'fastify';

const app = Fastify({ logger: false });
app.get('/bare', async () => ({ succeeded: true, result: { ok: true }, errors: [] }));
await app.listen({ port: 0, host: '127.0.0.1' });
console.log((app.server.address() as { port: number }).port);
