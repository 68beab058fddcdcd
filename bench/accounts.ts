// The account calls measured from outside (bench/outside.ts): the portal as `npm start` runs it, the
// bare Fastify route and the load generator each in a process of its own, 50 connections, each call
// right after the bare route. BENCH_SESSIONS owners sign up first, and each request of current-user
// carries the next one's token, so the calls spread over many signed-in sessions as a portal in use
// sees them, not one session always in memory. Sign-in signs the same owners in, in turn.
// Run: npm run bench   (BENCH_SECONDS=4, BENCH_ROUNDS=7, BENCH_SESSIONS=1000 by default; BENCH_BUILD=false reuses the
// last build; DATABASE_URL=postgres://… adds a PostgreSQL server)
import { loadavg } from 'node:os';
import { API, buildUnlessTold, measureBesideBare, onEachDatabase, printRows, ROOT, ROUNDS, startBare, startPortal, type Target } from './outside.js';

const DURATION_S = Number(process.env.BENCH_SECONDS ?? 4);
const SESSIONS = Number(process.env.BENCH_SESSIONS ?? 1000);
const PASSWORD = 'Bench#Pass1';

async function signUp(origin: string, email: string): Promise<string> {
  const response = await fetch(`${origin}${API}/Users/signup`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email, password: PASSWORD, firstName: 'Bench', lastName: 'Mark', phoneNumber: '(415) 555-2671' }),
  });
  const envelope = (await response.json()) as { result: { token: string }; errors: string[] };
  if (!response.ok) throw new Error(`sign-up: ${response.status} ${envelope.errors.join(', ')}`);
  return envelope.result.token;
}

/** `count` owners signed up, ten at a time (each sign-up hashes a password). */
async function signUpOwners(origin: string, count: number) {
  const emails = Array.from({ length: count }, (_, i) => `bench${Date.now()}-${i}@example.com`);
  const tokens: string[] = [];
  for (let i = 0; i < count; i += 10) tokens.push(...(await Promise.all(emails.slice(i, i + 10).map((email) => signUp(origin, email)))));
  return { emails, tokens };
}

const cycle = <T>(items: T[]) => {
  let next = 0;
  return () => items[next++ % items.length]!;
};

buildUnlessTold(ROOT);
const bare = await startBare();
try {
  await onEachDatabase(async (label, dataDir, databaseUrl) => {
    const portal = await startPortal(ROOT, dataDir, databaseUrl);
    try {
      const { emails, tokens } = await signUpOwners(portal.origin, SESSIONS);
      const token = cycle(tokens);
      const email = cycle(emails);
      const targets: Target[] = [
        {
          name: `GET Users/current-user, ${SESSIONS} sessions`,
          url: `${portal.origin}${API}/Users/current-user`,
          vary: () => ({ headers: { authorization: `Bearer ${token()}` } }),
          ratio: 0.5,
        },
        {
          name: 'POST Users/login',
          url: `${portal.origin}${API}/Users/login`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ email: emails[0], password: PASSWORD }),
          vary: () => ({ body: JSON.stringify({ email: email(), password: PASSWORD }) }),
        },
      ];
      const rows = await measureBesideBare(bare, targets, DURATION_S, undefined, portal.pid);
      console.log(`\n${label}, ${DURATION_S} s each, the median of ${ROUNDS} rounds, 50 connections, load average ${loadavg().map((l) => l.toFixed(2)).join(' ')}`);
      printRows(rows);
      console.log('  sign-in is bounded by argon2id (about 9 ms a hash on one core): no target beside the bare route');
      if (!databaseUrl) console.log('  on PGlite a sign-in past the writes in progress the embedded database lets in is answered 503 with Retry-After at once; autocannon asks again at once, so those count as non-2xx');
    } finally {
      await portal.stop();
    }
  });
} finally {
  await bare.stop();
}
