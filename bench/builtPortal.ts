// The built portal as `npm start` runs it (node server/dist/main.js, a temporary DATA_DIR, a free PORT),
// and a chipped pet registered in it through the API and its own test checkout: what the browser
// benchmarks (bench:pages, bench:lighthouse) open, and the owners bench:relay's finders reach.
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { dogRegistration, type RegistrationChoices } from '../e2e/tests/registration.js';

export const repositoryRoot = join(import.meta.dirname, '..');

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
    server.on('error', reject);
  });
}

/** Stops the process when the build to measure is missing. */
export function requireBuild(checkout = repositoryRoot) {
  if (!existsSync(join(checkout, 'server/dist/main.js')) || !existsSync(join(checkout, 'web/dist/index.html'))) {
    console.error(`No build to measure in ${checkout}: run \`npm run build\` there first.`);
    process.exit(1);
  }
}

/** Starts `checkout`'s build on a fresh data folder, with `env` set beside it; resolves once health-check answers. */
export async function startBuiltPortal(checkout = repositoryRoot, env: Record<string, string> = {}) {
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = mkdtempSync(join(tmpdir(), 'petreg-bench-portal-'));
  const portal = spawn(process.execPath, ['server/dist/main.js'], {
    cwd: checkout,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, PORT: String(port), DATA_DIR: dataDir, LOG_LEVEL: 'warn', RATE_LIMIT_ALLOWLIST: '127.0.0.1', ...env },
  });
  const stop = async () => {
    if (portal.exitCode === null) {
      portal.kill();
      await new Promise((resolve) => portal.once('exit', resolve));
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  try {
    for (let i = 0; ; i++) {
      if (portal.exitCode !== null) throw new Error(`the portal exited with code ${portal.exitCode}`);
      if (i === 1200) throw new Error('the portal did not answer within 120 s');
      const up = await fetch(`${base}/api/v2/utilities/health-check`).then((r) => r.ok, () => false);
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { base, pid: portal.pid!, stop };
}

/** A call of the portal's API; `address` is the caller's, as a trusted proxy (TRUST_PROXY) reports it. */
export async function api<T>(base: string, method: string, path: string, body?: unknown, token?: string, address?: string): Promise<T> {
  const response = await fetch(`${base}/api/v2/${path}`, {
    method,
    headers: {
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      ...(token ? { authorization: `Bearer ${token}` } : {}),
      ...(address ? { 'x-forwarded-for': address } : {}),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!response.ok) throw new Error(`${method} ${path}: ${response.status} ${await response.text()}`);
  return ((await response.json()) as { result: T }).result;
}

/** A breed as the pet form sends it. */
export interface Breed {
  id: number;
  name: string;
}

/** The first breed of the dog species, as the pet form offers it. */
export async function dogBreed(base: string): Promise<Breed> {
  const { species } = await api<RegistrationChoices>(base, 'GET', 'utilities/static-data');
  const breeds = await api<Breed[]>(base, 'GET', `utilities/breeds-by-species/${species.find((s) => s.name === 'Dog')!.id}`);
  return breeds[0]!;
}

export interface RegisteredPet {
  /** The owner's session. */
  token: string;
  id: number;
  publicId: string;
  shortId: string;
  chipId: string;
  /** The stored photo's name, which the edit form sends back to keep it. */
  image: string | null;
}

/**
 * An owner signs up (with `email`, from `address`, with `phoneNumber`, when given; password Bench#Pass1), registers a chipped dog sharing
 * contact details (with `photo`, a data URL, when given) and pays the yearly plan in the test checkout.
 */
export async function registerPet(
  base: string,
  options: { photo?: string; phoneNumber?: string; address?: string; email?: string; breeds?: Breed[] } = {},
): Promise<RegisteredPet> {
  const { photo, phoneNumber = '(415) 555-2671', address, email = `bench-pages-${randomUUID()}@example.com`, breeds } = options;
  const { token } = await api<{ token: string }>(
    base,
    'POST',
    'Users/signup',
    { email, password: 'Bench#Pass1', firstName: 'Jamie', lastName: 'Rivera', phoneNumber },
    undefined,
    address,
  );
  const choices = await api<RegistrationChoices>(base, 'GET', 'utilities/static-data', undefined, undefined, address);
  const chipId = `985${String(Date.now()).slice(-9)}${String(Math.floor(Math.random() * 1000)).padStart(3, '0')}`;
  const registration = { ...dogRegistration(chipId, choices), ...(photo ? { image: photo } : {}), ...(breeds ? { breeds } : {}) };
  const { pet } = await api<{ pet: Omit<RegisteredPet, 'chipId'> }>(base, 'POST', 'Pet/create-pet', registration, token, address);
  const { plans } = await api<{ plans: { id: number; oneTime: boolean }[] }>(base, 'GET', 'pet/plans', undefined, undefined, address);
  await api(base, 'PUT', 'Pet/update-plan', { id: pet.id, planId: plans.find((p) => !p.oneTime)!.id }, token, address);
  const { location } = await api<{ location: string }>(base, 'GET', `checkout/stripe-subscription/${pet.id}?petFlow=true`, undefined, token, address);
  const sessionId = new URL(location).pathname.split('/').pop()!;
  await api(base, 'POST', `checkout/local/${sessionId}/pay`, { name: 'Jamie Rivera', cardNumber: '4242 4242 4242 4242', expiry: '12/39', cvc: '123' }, token, address);
  return { token, id: pet.id, publicId: pet.publicId, shortId: pet.shortId, chipId, image: pet.image };
}
