// A finder's report relayed to the owner's phone: the time from the finder's tap (POST
// public/found-report) until the owner's text reaches the SMS provider (a local server answering
// Twilio's Messages API). The portal runs as `npm start` runs it (the build, its own process, a fresh
// DATA_DIR), with Twilio configured to the local server, rate limits on and each finder calling from an
// address of its own (TRUST_PROXY=1). Owners sign up and verify their mobile through the texted code,
// as owners do. Reports go out paced (one every BENCH_PACE_MS) and then in a burst (BENCH_BURST at once).
// Run: npm run build && npm run bench:relay   (BENCH_OWNERS=20, BENCH_REPORTS=60, BENCH_BURST=40)
import { setTimeout as sleep } from 'node:timers/promises';
import { performance } from 'node:perf_hooks';
import { loadavg } from 'node:os';
import { accountSid, localTwilio } from '../server/test/localTwilio.js';
import { api, registerPet, requireBuild, startBuiltPortal, type RegisteredPet } from './builtPortal.js';

const OWNERS = Number(process.env.BENCH_OWNERS ?? 20);
const PACED = Number(process.env.BENCH_REPORTS ?? 60);
const PACE_MS = Number(process.env.BENCH_PACE_MS ?? 250);
const BURST = Number(process.env.BENCH_BURST ?? 40);
/** The target: the owner's text handed to the provider within 10 s of the tap, p95. */
const TARGET_P95_MS = 10_000;

requireBuild();
const twilio = await localTwilio();
const portal = await startBuiltPortal(undefined, {
  TWILIO_ACCOUNT_SID: accountSid,
  TWILIO_AUTH_TOKEN: 'bench-auth-token',
  TWILIO_FROM: '(314) 555-0100',
  TWILIO_API_URL: twilio.url,
  TRUST_PROXY: '1',
  RATE_LIMIT_ALLOWLIST: '',
});

/** Each caller from an address of its own, as the load balancer in front of the portal reports it. */
let addresses = 0;
const nextAddress = () => {
  addresses++;
  return `198.18.${Math.floor(addresses / 250)}.${(addresses % 250) + 1}`;
};

/** Waits for the text the local Twilio received that `matches`, and answers when it arrived. */
async function textArrival(matches: (to: string, body: string) => boolean, withinMs = 60_000): Promise<{ at: number; body: string }> {
  const until = performance.now() + withinMs;
  while (performance.now() < until) {
    const text = twilio.received.find((r) => matches(r.form.get('To') ?? '', r.form.get('Body') ?? ''));
    if (text) return { at: text.at, body: text.form.get('Body') ?? '' };
    await sleep(5);
  }
  throw new Error('no text reached the provider within a minute');
}

interface Owner extends RegisteredPet {
  phone: string;
}

/** An owner with a chipped, paid-up pet, whose mobile is verified with the code the portal texts. */
async function ownerWithVerifiedMobile(n: number): Promise<Owner> {
  const phone = `+1314555${String(1000 + n).slice(-4)}`;
  const address = nextAddress();
  const pet = await registerPet(portal.base, { phoneNumber: phone, address });
  const asked = performance.now();
  await api(portal.base, 'POST', 'Users/send-phone-code', {}, pet.token, address);
  const { body } = await textArrival((to, text) => to === phone && /^\d{6} /.test(text) && performance.now() > asked);
  await api(portal.base, 'POST', 'Users/verify-phone', { code: body.slice(0, 6) }, pet.token, address);
  return { ...pet, phone };
}

interface Relay {
  answeredMs: number;
  textedMs: number;
}

/** A finder's report of the owner's pet; resolves once the owner's text reached the provider. */
async function report(owner: Owner, n: number): Promise<Relay> {
  const marker = `relay-${n}-${Date.now()}`;
  const tapped = performance.now();
  await api(portal.base, 'POST', 'public/found-report', {
    publicId: owner.publicId,
    name: `Finder ${n}`,
    phone: '',
    email: `finder${n}@example.net`,
    message: `${marker} Found this dog by the park, friendly, no collar.`,
    where: '63101',
  }, undefined, nextAddress());
  const answered = performance.now();
  const { at } = await textArrival((to, body) => to === owner.phone && body.includes(marker));
  return { answeredMs: answered - tapped, textedMs: at - tapped };
}

const quantile = (sorted: number[], q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)]!;
function summary(label: string, runs: Relay[]) {
  const texted = runs.map((r) => r.textedMs).sort((a, b) => a - b);
  const answered = runs.map((r) => r.answeredMs).sort((a, b) => a - b);
  const p95 = quantile(texted, 0.95);
  console.log(
    `${label.padEnd(28)} ${String(runs.length).padStart(4)} reports | answered p50 ${quantile(answered, 0.5).toFixed(0)} ms, p95 ${quantile(answered, 0.95).toFixed(0)} ms` +
      ` | texted p50 ${quantile(texted, 0.5).toFixed(0)} ms, p95 ${p95.toFixed(0)} ms, max ${texted.at(-1)!.toFixed(0)} ms ${p95 <= TARGET_P95_MS ? '(within 10 s)' : '(OVER 10 s)'}`,
  );
}

try {
  const owners: Owner[] = [];
  for (let n = 0; n < OWNERS; n++) owners.push(await ownerWithVerifiedMobile(n));
  console.log(`${OWNERS} owners with verified mobiles; load average ${loadavg()[0]!.toFixed(1)} on this machine`);

  const paced: Promise<Relay>[] = [];
  for (let n = 0; n < PACED; n++) {
    paced.push(report(owners[n % owners.length]!, n));
    await sleep(PACE_MS);
  }
  summary(`paced, one every ${PACE_MS} ms`, await Promise.all(paced));
  summary(`burst of ${BURST} at once`, await Promise.all(Array.from({ length: BURST }, (_, n) => report(owners[n % owners.length]!, PACED + n))));
} finally {
  await portal.stop();
  await twilio.close();
}
