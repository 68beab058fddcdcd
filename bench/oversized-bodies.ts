// Does an oversized body stall the server? Sends ten 14 MB `breeds` bodies to POST Pet/create-pet
// at once, with and without a content-length, while timing GET utilities/health-check.
// Run: npm run bench:bodies   (DATABASE_URL=postgres://… to measure on a PostgreSQL server instead of PGlite)
import http from 'node:http';
import { startBenchPortal } from './portal.js';

const BODIES = 10;
/** Rounds of ten bodies each way, for enough health checks to time. */
const ROUNDS = 5;
// BENCH_BODY_MB=5.3 sends bodies just under the limit of the routes taking a photo, which are parsed.
const BODY_MB = Number(process.env.BENCH_BODY_MB ?? 14);
/** The health check must stay under this while the bodies arrive. */
const TARGET_MS = 200;

const portal = await startBenchPortal();
const { port, token } = portal;

// One 14 MB registration whose breeds list is what makes it large.
const breed = '{"id":1,"name":"Labrador Retriever"},';
const count = Math.floor((BODY_MB * 1024 * 1024) / breed.length);
const body = Buffer.from(`{"name":"Biscuit","speciesId":1,"breeds":[${breed.repeat(count)}{"id":1,"name":"Beagle"}]}`);

/** Sends the body; answers the status, or the socket error when the server hung up first. */
function post(chunked: boolean): Promise<string> {
  return new Promise((resolve) => {
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json', authorization: `Bearer ${token}` };
    if (!chunked) headers['content-length'] = body.length;
    const request = http.request({ port, host: '127.0.0.1', method: 'POST', path: '/api/v2/Pet/create-pet', headers }, (response) => {
      response.resume();
      response.on('end', () => resolve(String(response.statusCode)));
    });
    request.on('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    // Chunked: in 1 MB pieces with no length announced, so the limit must be counted as bytes arrive.
    if (chunked) for (let i = 0; i < body.length; i += 1024 * 1024) request.write(body.subarray(i, i + 1024 * 1024));
    else request.write(body);
    request.end();
  });
}

const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
function healthCheck(): Promise<number> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    http
      .get({ port, host: '127.0.0.1', path: '/api/v2/utilities/health-check', agent: healthAgent }, (response) => {
        response.resume();
        response.on('end', () => resolve(performance.now() - started));
      })
      .on('error', reject);
  });
}

/** Times health checks back to back (5 ms apart) until `work` settles; answers the latencies. */
async function timeHealthDuring(work: Promise<unknown>): Promise<number[]> {
  let done = false;
  void work.finally(() => (done = true));
  const latencies: number[] = [];
  while (!done) {
    latencies.push(await healthCheck());
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  return latencies;
}

const summary = (latencies: number[]) => {
  const sorted = [...latencies].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))]!.toFixed(1);
  return `${latencies.length} checks, median ${at(0.5)} ms, p99 ${at(0.99)} ms, worst ${sorted.at(-1)!.toFixed(1)} ms`;
};

await timeHealthDuring(new Promise((resolve) => setTimeout(resolve, 500))); // warm up
const idle = await timeHealthDuring(new Promise((resolve) => setTimeout(resolve, 1000)));
console.log(`\n${portal.databaseKind}; ${ROUNDS} rounds of ${BODIES} bodies of ${(body.length / 1024 / 1024).toFixed(1)} MB to POST Pet/create-pet\n`);
console.log(`health-check, idle:                 ${summary(idle)}`);

let worst = 0;
for (const chunked of [false, true]) {
  const latencies: number[] = [];
  const statuses = new Set<string>();
  let slowestRound = 0;
  for (let round = 0; round < ROUNDS; round++) {
    const started = performance.now();
    const posts = Promise.all(Array.from({ length: BODIES }, () => post(chunked)));
    latencies.push(...(await timeHealthDuring(posts)));
    for (const status of await posts) statuses.add(status);
    slowestRound = Math.max(slowestRound, performance.now() - started);
  }
  worst = Math.max(worst, ...latencies);
  const label = chunked ? 'chunked, no content-length' : 'with content-length';
  console.log(`health-check, bodies ${label.padEnd(26)} ${summary(latencies)}`);
  console.log(`  answers: ${[...statuses].join(', ')}; slowest round of ${BODIES} bodies ${slowestRound.toFixed(0)} ms`);
}
console.log(`\nworst health-check latency ${worst.toFixed(1)} ms; target < ${TARGET_MS} ms -> ${worst < TARGET_MS ? 'met' : 'NOT met'}`);

healthAgent.destroy();
await portal.close();
