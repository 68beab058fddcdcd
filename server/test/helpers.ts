import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuthResult, CreatedPet, Envelope, FinderPageRenderer, StaticData } from '@petreg/contract';
import type { FastifyInstance, InjectOptions } from 'fastify';
import { and, desc, eq } from 'drizzle-orm';
import { simpleParser } from 'mailparser';
import pg from 'pg';
import { inject } from 'vitest';
import { createMailer, type Mailer } from '../src/adapters/mail/index.js';
import { buildApp } from '../src/app.js';
import { loadConfig, type Config, type Env } from '../src/config.js';
import { openDatabase, type DatabaseHandle } from '../src/db/client.js';
import { chips, mailOutbox, pets } from '../src/db/schema.js';
import { seedSampleSites, seedStaticData } from '../src/db/seed.js';
import { ensureAdministrator } from '../src/modules/users/bootstrap.js';
import { ADMIN_URL } from './globalSetup.js';

/**
 * A fresh database for one test file, copied from the run's migrated and seeded one (globalSetup.ts):
 * in-memory PGlite, or (TEST_DB=postgres) a new database on the local PostgreSQL server that is
 * dropped afterwards.
 */
async function freshDatabase(config: Config, port?: number, dataDir?: string): Promise<{ database: DatabaseHandle; url: string | null; drop: () => Promise<void> }> {
  const seeded = inject('seededDatabase');
  if ('snapshotFile' in seeded) {
    const database = await openDatabase({ dataDir: dataDir ?? null, snapshot: new Blob([readFileSync(seeded.snapshotFile)]) });
    return { database, url: null, drop: () => database.close() };
  }
  const name = `petreg_test_${randomUUID().replace(/-/g, '')}`;
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  await admin.query(`create database ${name} template ${seeded.template}`);
  await admin.end();
  const url = new URL(ADMIN_URL.replace(/\/test$/, `/${name}`));
  if (port) url.port = String(port);
  const database = await openDatabase({ url: url.toString(), dataDir: null, timeouts: config.databaseTimeouts });
  return {
    database,
    url: url.toString(),
    async drop() {
      await database.close();
      const client = new pg.Client({ connectionString: ADMIN_URL });
      await client.connect();
      await client.query(`drop database if exists ${name}`);
      await client.end();
    },
  };
}

/** The test apps' signing secret: a token from one instance is good on another, and on a portal process started with it as JWT_SECRET. */
export const TEST_JWT_SECRET = 'test-secret-test-secret-test-secret!';

export interface TestContext {
  app: FastifyInstance;
  database: DatabaseHandle;
  /** The PostgreSQL server's database, for other processes to open; null on PGlite. */
  databaseUrl: string | null;
  outboxDir: string;
  close(): Promise<void>;
}

/**
 * Another instance's connection to the database of `first`: its own pool on the PostgreSQL server;
 * on PGlite, which one process holds, the same handle (closed with `first`).
 */
async function sameDatabase(first: TestContext, config: Config): Promise<{ database: DatabaseHandle; url: string | null; drop: () => Promise<void> }> {
  if (!first.databaseUrl) return { database: first.database, url: null, drop: async () => undefined };
  const database = await openDatabase({ url: first.databaseUrl, dataDir: null, timeouts: config.databaseTimeouts });
  return { database, url: first.databaseUrl, drop: () => database.close() };
}

/**
 * The app on a fresh database. Its directory of sites is empty, so each test adds the sites it
 * reads; `sampleSites` seeds the sample directory of an embedded start. On the PostgreSQL server,
 * `databasePort` is where the app reaches it (a test's proxy in between). On PGlite, `dataDir` keeps
 * the database in that folder (left there at close), for a portal process started on it afterwards.
 * `instanceOf` starts a second instance on the database of an app already started, with its own data folder.
 */
export async function createTestApp(
  options: {
    env?: Env;
    mailer?: Mailer;
    sampleSites?: boolean;
    databasePort?: number;
    dataDir?: string;
    webRoot?: string;
    finderPages?: FinderPageRenderer;
    instanceOf?: TestContext;
  } = {},
): Promise<TestContext> {
  const outboxDir = mkdtempSync(join(tmpdir(), 'petreg-mail-'));
  // Tests create many owners from 127.0.0.1; rate-limit tests call from other addresses.
  const config = loadConfig({ LOG_LEVEL: 'silent', DATA_DIR: outboxDir, RATE_LIMIT_ALLOWLIST: '127.0.0.1', ...options.env });
  const { database, url: databaseUrl, drop } = options.instanceOf
    ? await sameDatabase(options.instanceOf, config)
    : await freshDatabase(config, options.databasePort, options.dataDir);
  await database.migrate();
  await seedStaticData(database.db);
  if (options.sampleSites) await seedSampleSites(database.db);
  const mailer = options.mailer ?? createMailer({ from: config.mailFrom, outboxDir });
  const app = await buildApp({
    config,
    database,
    mailer,
    jwtSecret: TEST_JWT_SECRET,
    webRoot: options.webRoot ?? '/nonexistent',
    finderPages: options.finderPages,
  });
  await app.ready();
  return {
    app,
    database,
    databaseUrl,
    outboxDir,
    async close() {
      await app.close();
      await drop();
      rmSync(outboxDir, { recursive: true, force: true });
    },
  };
}

export interface Answer<T> {
  status: number;
  body: Envelope<T>;
  headers: Record<string, unknown>;
}

/** Calls the API under /api/v2, optionally with a bearer token, and parses the envelope. */
export async function call<T = unknown>(
  app: FastifyInstance,
  method: InjectOptions['method'],
  path: string,
  options: { body?: unknown; token?: string; ip?: string } = {},
): Promise<Answer<T>> {
  const response = await app.inject({
    method,
    url: `/api/v2/${path}`,
    payload: options.body as InjectOptions['payload'],
    headers: options.token ? { authorization: `Bearer ${options.token}` } : {},
    remoteAddress: options.ip ?? '127.0.0.1',
  });
  return { status: response.statusCode, body: response.json() as Envelope<T>, headers: response.headers };
}

let counter = 0;
export const uniqueEmail = () => `owner${Date.now()}${counter++}@example.com`;

export const validSignUp = () => ({
  firstName: 'Jamie',
  lastName: 'Rivera',
  email: uniqueEmail(),
  phoneNumber: '(415) 555-2671',
  password: 'Secret#123',
});

/** Signs a new owner up through the API and answers the token and user. */
export async function signUpOwner(app: FastifyInstance, overrides: Partial<ReturnType<typeof validSignUp>> = {}, ip?: string) {
  const input = { ...validSignUp(), ...overrides };
  const { status, body } = await call<AuthResult>(app, 'POST', 'Users/signup', { body: input, ip });
  if (status !== 200 || !body.result) throw new Error(`sign-up failed: ${status} ${body.errors.join(', ')}`);
  return { ...body.result, input };
}

/** Makes the portal's administrator (as the first start does) and signs them in. */
export async function signInAdministrator(ctx: TestContext): Promise<AuthResult> {
  await ensureAdministrator(ctx.database.db, { email: 'root@example.com', password: 'Admin#Pass1' });
  return (await call<AuthResult>(ctx.app, 'POST', 'Users/login', { body: { email: 'root@example.com', password: 'Admin#Pass1' } })).body.result!;
}

/**
 * The token of the newest sign-up confirmation link (or, `kind` 'email-change', link confirming a new
 * address) mailed to the address, read from the outbox before the worker sends it.
 */
export async function signUpConfirmationToken(ctx: TestContext, email: string, kind: 'email-confirmation' | 'email-change' = 'email-confirmation'): Promise<string> {
  const mails = await ctx.database.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.recipient, email), eq(mailOutbox.kind, kind)))
    .orderBy(desc(mailOutbox.id));
  const link = new URL(mails[0]!.text.match(/https?:\/\/\S+/)![0]);
  return link.searchParams.get('token')!;
}

/** Follows the sign-up's confirmation link: the owner proves the address. */
export async function confirmSignUpEmail(ctx: TestContext, email: string): Promise<void> {
  const { status } = await call(ctx.app, 'POST', 'Users/confirm-email', { body: { token: await signUpConfirmationToken(ctx, email) } });
  if (status !== 200) throw new Error(`confirmation failed: ${status}`);
}

/** The e-mails in the outbox, oldest first, parsed. */
export async function readOutbox(outboxDir: string) {
  const files = readdirSync(outboxDir).filter((f) => f.endsWith('.eml')).sort();
  return Promise.all(files.map((f) => simpleParser(readFileSync(join(outboxDir, f)))));
}

let chipSerial = 0;
/** A fresh 15-digit ISO chip number (country code 840, USA), unique in this process. */
export const uniqueChip = (prefix = '840') => `${prefix}${String(Date.now() % 1e9).padStart(9, '0')}${String(chipSerial++).padStart(3, '0')}`.slice(0, 15);

/** Create-pet's form for a pet named Biscuit of the first species, with the chip given (of the first brand) or none. */
export const petForm = (data: StaticData, chipId: string | null) => ({
  name: 'Biscuit',
  chipId: chipId ?? '',
  confirmChip: chipId ?? '',
  chipTypeId: chipId ? data.brands[0]!.id : null,
  speciesId: data.species[0]!.id,
});

/** Registers a dog with a chip for the owner through the API and answers the pet. */
export async function registerPet(app: FastifyInstance, token: string, chipId: string | null = uniqueChip()) {
  const data = (await call<StaticData>(app, 'GET', 'utilities/static-data')).body.result!;
  const { status, body } = await call<CreatedPet>(app, 'POST', 'Pet/create-pet', { token, body: petForm(data, chipId) });
  if (status !== 200) throw new Error(`pet registration failed: ${status} ${body.errors.join(', ')}`);
  return body.result!.pet;
}

/** Ends every connection to the test's database on the server, the listening one among them, as a restart does (57P01). */
export async function endConnections(ctx: TestContext) {
  const admin = new pg.Client({ connectionString: ADMIN_URL });
  await admin.connect();
  try {
    await admin.query('select pg_terminate_backend(pid) from pg_stat_activity where datname = $1', [new URL(ctx.databaseUrl!).pathname.slice(1)]);
  } finally {
    await admin.end();
  }
}

/** Puts a pet and its chip on a plan for a year, as a payment would: its chip is then found by the lookup. */
export async function activatePet(database: DatabaseHandle, petId: number, chip: Partial<typeof chips.$inferInsert> = {}) {
  await database.db.update(pets).set({ isActive: true }).where(eq(pets.id, petId));
  const nextYear = new Date(Date.now() + 365 * 86_400_000);
  await database.db.update(chips).set({ isActive: true, expirationDate: nextYear, ...chip }).where(eq(chips.petId, petId));
}

/** A multipart body as a browser sends a file field, built by hand. */
export function multipart(parts: { name: string; filename?: string; type?: string; content: string | Buffer }[]) {
  const boundary = `----petreg${randomUUID()}`;
  const chunks = parts.flatMap((part) => [
    Buffer.from(
      `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.filename ? `; filename="${part.filename}"` : ''}\r\n` +
        (part.type ? `Content-Type: ${part.type}\r\n` : '') +
        '\r\n',
    ),
    Buffer.isBuffer(part.content) ? part.content : Buffer.from(part.content),
    Buffer.from('\r\n'),
  ]);
  return { payload: Buffer.concat([...chunks, Buffer.from(`--${boundary}--\r\n`)]), contentType: `multipart/form-data; boundary=${boundary}` };
}

/** A free port on 127.0.0.1 for a local peer or a portal process, found by listening on port 0 once. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as AddressInfo;
      probe.close(() => resolve(port));
    });
  });
}
