import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { API_BASE, normalisePhone, support } from '@petreg/contract';
import { z } from 'zod';
import { twilioEnv, twilioOf, type TwilioSettings } from './adapters/sms/settings.js';
import { s3Env, s3Of, type S3Settings } from './adapters/storage/settings.js';
import { ConfigError } from './configError.js';
import type { PoolMode } from './db/transactionPool.js';
import { trustProxy } from './trustProxy.js';
import { operationsEnv, operationsOf, type OperationsSettings } from './modules/operations/settings.js';
import { inboundMailEnv, inboundMailOf, type InboundMailSettings } from './modules/relay/settings.js';

const optionalString = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined));

/** An operator's file the portal serves: checked at start, so a mistyped path never answers 500 later. */
const optionalFile = optionalString.refine((v) => v === undefined || existsSync(v), 'must name an existing file');

const optionalUrl = z
  .string()
  .trim()
  .optional()
  .transform((v) => (v ? v : undefined))
  .pipe(z.url().optional());

/** OpenStreetMap's own tiles, with the credit its tile usage policy asks for. */
const osmTiles = {
  url: 'https://tile.openstreetmap.org/{z}/{x}/{y}.png',
  attribution: '&copy; <a href="https://www.openstreetmap.org/copyright">OpenStreetMap</a> contributors',
};

/** Google's road map through the portal (GET site/map-tile/{z}/{x}/{y}), which holds the key. */
const googleTiles = { url: `${API_BASE}/site/map-tile/{z}/{x}/{y}`, attribution: 'Map data &copy; Google' };

const isTileTemplate = (v: string) => ['{z}', '{x}', '{y}'].every((part) => v.includes(part)) && z.url().safeParse(v.replaceAll(/[{}]/g, '')).success;

/** A delay of the found reports' escalation, in whole minutes: at least one, at most a week. */
const escalationMinutes = z.coerce
  .number()
  .int('must be a whole number of minutes')
  .min(1, 'must be from 1 to 10080 minutes (a week)')
  .max(7 * 24 * 60, 'must be from 1 to 10080 minutes (a week)');

/** Every environment variable the server reads, with its embedded default. */
const envSchema = z.object({
  PORT: z.coerce.number().int().min(1).max(65535).default(3000),
  HOST: z.string().default('0.0.0.0'),
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalUrl.refine((v) => !v || /^postgres(ql)?:/.test(v), 'must start with postgres://'),
  DATABASE_CONNECT_TIMEOUT_MS: z.coerce.number().int().min(100).default(5000),
  DATABASE_STATEMENT_TIMEOUT_MS: z.coerce.number().int().min(100).default(15_000),
  DATABASE_POOL_MODE: z.enum(['session', 'transaction']).default('session'),
  PUBLIC_URL: optionalUrl,
  PRODUCTION_HOST: optionalString.refine((v) => !v || /^[a-z0-9.-]+(:\d+)?$/i.test(v), 'must be a host name, optionally with :port'),
  JWT_SECRET: optionalString.refine((v) => !v || v.length >= 32, 'must be at least 32 characters'),
  ADMIN_EMAIL: optionalString.pipe(z.email().optional()),
  ADMIN_PASSWORD: optionalString,
  SMTP_URL: optionalUrl,
  MAIL_FROM: z.string().default('Pet Registry <no-reply@localhost>'),
  GOOGLE_CLIENT_ID: optionalString,
  GOOGLE_JWKS_URL: z.url().default('https://www.googleapis.com/oauth2/v3/certs'),
  GOOGLE_ISSUERS: z
    .string()
    .default('https://accounts.google.com,accounts.google.com')
    .transform((v) => v.split(',').map((s) => s.trim())),
  FACEBOOK_APP_ID: optionalString,
  FACEBOOK_APP_SECRET: optionalString,
  FACEBOOK_GRAPH_URL: z.url().default('https://graph.facebook.com'),
  SUPPORT_PHONE: z
    .string()
    .default('(800) 555-0142')
    .refine((v) => normalisePhone(v) !== null, 'must be a phone number'),
  REGISTRY_NAME: z.string().trim().min(1).max(100).default('Pet Registry'),
  // The 24/7 line the open lookup gives shelters and other registries; unset: the support line's lookup extension.
  REGISTRY_PHONE: optionalString.refine((v) => v === undefined || normalisePhone(v) !== null, 'must be a phone number'),
  SUPPORT_ADDRESS: z.string().min(1).default('100 Main Street, Suite 200, Springfield, IL 62701'),
  // A path inside the portal or a full address; never the portal root, which leads signed-in owners to the dashboard.
  HOME_URL: z
    .string()
    .trim()
    .default(support.defaultHomeUrl)
    .refine((v) => (v.startsWith('/') && !v.startsWith('//')) || z.url().safeParse(v).success, 'must be a path or an address'),
  BLOG_URL: optionalUrl,
  PRIVACY_FILE: optionalFile,
  TERMS_FILE: optionalFile,
  STRIPE_SECRET_KEY: optionalString,
  GOOGLE_MAPS_API_KEY: optionalString,
  GOOGLE_PLACES_URL: z.url().default('https://places.googleapis.com'),
  // The maps on the vet screens: a tile address with {z}, {x} and {y} (and optionally {s}), and the credit its provider asks for.
  MAP_TILE_URL: optionalString.refine(
    (v) => v === undefined || isTileTemplate(v),
    'must be a tile address with {z}, {x} and {y}',
  ),
  MAP_TILE_ATTRIBUTION: optionalString,
  GOOGLE_TILES_URL: z.url().default('https://tile.googleapis.com'),
  SAMPLE_SITES: z.enum(['true', 'false']).optional(),
  STRIPE_WEBHOOK_SECRET: optionalString,
  STRIPE_API_URL: optionalUrl,
  ...twilioEnv,
  ...s3Env,
  NODE_ENV: optionalString,
  ALLOW_TEST_PAYMENTS: z.enum(['true', 'false']).default('false'),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  LOG_FORMAT: z.enum(['auto', 'pretty', 'json']).default('auto'),
  RATE_LIMIT_ALLOWLIST: z
    .string()
    .default('')
    .transform((v) => v.split(',').map((s) => s.trim()).filter(Boolean)),
  TRUST_PROXY: trustProxy,
  // A found report nobody opened: minutes until the backup contacts are texted, and until the pet's vets are e-mailed.
  FOUND_REPORT_BACKUP_AFTER_MINUTES: escalationMinutes.default(15),
  FOUND_REPORT_VETS_AFTER_MINUTES: escalationMinutes.default(120),
  ...inboundMailEnv,
  ...operationsEnv,
  // How often owners are asked "Is this still how we reach you?" (months since their contacts were last confirmed or asked about).
  CONTACT_RECONFIRM_MONTHS: z.coerce
    .number()
    .int('must be a whole number of months')
    .min(1, 'must be from 1 to 60 months')
    .max(60, 'must be from 1 to 60 months')
    .default(6),
});

/** The variables by name, as strings, the way the process environment gives them. */
export type Env = Partial<Record<keyof z.input<typeof envSchema>, string>>;

export interface Config {
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** How long a PostgreSQL server may take to accept a connection, and to answer a statement. */
  databaseTimeouts: { connectMs: number; statementMs: number };
  /** How DATABASE_URL reaches the server: directly or through a pooler in session mode, or through one in transaction mode. */
  databasePoolMode: PoolMode;
  publicUrl: string;
  /** Host of the production portal; the public lookup page opened on any other host moves there. */
  productionHost: string | undefined;
  jwtSecret: string | undefined;
  admin: { email: string; password: string | undefined };
  smtpUrl: string | undefined;
  mailFrom: string;
  google: { clientId: string | undefined; jwksUrl: string; issuers: string[] };
  facebook: { appId: string | undefined; appSecret: string | undefined; graphUrl: string };
  /** Stripe when a secret key is set; otherwise the portal's own checkout page. */
  stripe: { secretKey: string; webhookSecret: string; apiUrl: string | undefined } | null;
  /** Texts through Twilio when its account is set; otherwise files under DATA_DIR/sms. */
  twilio: TwilioSettings | null;
  /** Uploaded images on an S3-compatible bucket when S3_BUCKET is set; otherwise files under DATA_DIR/uploads. */
  s3: S3Settings | null;
  /**
   * Without Stripe, the portal's own checkout simulates payments with test cards: allowed, except
   * in production (NODE_ENV=production) unless ALLOW_TEST_PAYMENTS=true; off with Stripe.
   */
  testPayments: 'off' | 'allowed' | 'refused';
  /** Vet search through Google Places (API New) when a key is set; otherwise the directory of sites. */
  googlePlaces: { apiKey: string; url: string } | null;
  /**
   * The tiles of the vet screens' maps (a Leaflet URL template) and their credit (HTML, the
   * operator's): MAP_TILE_URL's, else Google's road map when a maps key is set, else OpenStreetMap's.
   */
  mapTiles: { url: string; attribution: string };
  /** Google's Map Tiles API, which the portal asks for the tiles of its maps; null when the tiles come from elsewhere. */
  googleMapTiles: { apiKey: string; url: string } | null;
  /** Whether a sample directory of sites is seeded (once) so vet search and alerts work with no setup. */
  sampleSites: boolean;
  /** Support line, company address, and the company's home page and blog (null: no blog link). */
  support: { phone: string; phoneHref: string; address: string; homeUrl: string; blogUrl: string | null };
  /** Who answers the open lookup (GET public/lookup/{chip}), and the line that reaches an owner at any hour. */
  registry: { name: string; phone: string; phoneHref: string };
  /** Operator-supplied privacy policy and terms of service; unset, DATA_DIR's or the shipped templates. */
  legalFiles: { privacy: string | undefined; terms: string | undefined };
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  /** Readable lines for a person at a terminal; one JSON object a line for log collectors. */
  logFormat: 'pretty' | 'json';
  /** Whose X-Forwarded-For is believed: nobody's (the connection's address), a hop count, or the proxies' addresses. */
  trustProxy: number | string[] | false;
  /** Client addresses exempt from rate limits (a monitoring probe, the benchmark). */
  rateLimitAllowList: string[];
  /** How long a found report may stay unopened before the backup contacts, then the pet's vets, are told. */
  foundReportEscalation: { backupAfterMinutes: number; vetsAfterMinutes: number };
  /** Replies to lost pet alert e-mails relayed to the owner by the inbound mail listener; null: no relay. */
  inboundMail: InboundMailSettings | null;
  /** Months between two "Is this still how we reach you?" of an owner who confirmed nothing meanwhile. */
  contactReconfirmMonths: number;
  /** /metrics and error reports (METRICS_TOKEN, SENTRY_DSN). */
  operations: OperationsSettings;
}

export { ConfigError };
export type { S3Settings, TwilioSettings };

function mapTilesOf(e: z.output<typeof envSchema>): Config['mapTiles'] {
  const tiles = e.MAP_TILE_URL ? { url: e.MAP_TILE_URL, attribution: '' } : e.GOOGLE_MAPS_API_KEY ? googleTiles : osmTiles;
  return { url: tiles.url, attribution: e.MAP_TILE_ATTRIBUTION ?? (tiles.url === osmTiles.url ? osmTiles.attribution : tiles.attribution) };
}

/** Parses the environment once; a bad value throws one line naming the variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ConfigError(`Invalid configuration: ${issue.path.join('.')} ${issue.message}`);
  }
  const e = parsed.data;
  if (e.FACEBOOK_APP_ID && !e.FACEBOOK_APP_SECRET) {
    throw new ConfigError('Invalid configuration: FACEBOOK_APP_SECRET is required when FACEBOOK_APP_ID is set');
  }
  if (e.STRIPE_SECRET_KEY && !e.STRIPE_WEBHOOK_SECRET) {
    throw new ConfigError('Invalid configuration: STRIPE_WEBHOOK_SECRET is required when STRIPE_SECRET_KEY is set');
  }
  return {
    port: e.PORT,
    host: e.HOST,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    databaseTimeouts: { connectMs: e.DATABASE_CONNECT_TIMEOUT_MS, statementMs: e.DATABASE_STATEMENT_TIMEOUT_MS },
    databasePoolMode: e.DATABASE_POOL_MODE,
    publicUrl: (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/$/, ''),
    productionHost: e.PRODUCTION_HOST?.toLowerCase(),
    jwtSecret: e.JWT_SECRET,
    admin: { email: e.ADMIN_EMAIL ?? 'admin@localhost', password: e.ADMIN_PASSWORD },
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM,
    google: { clientId: e.GOOGLE_CLIENT_ID, jwksUrl: e.GOOGLE_JWKS_URL, issuers: e.GOOGLE_ISSUERS },
    facebook: { appId: e.FACEBOOK_APP_ID, appSecret: e.FACEBOOK_APP_SECRET, graphUrl: e.FACEBOOK_GRAPH_URL },
    stripe: e.STRIPE_SECRET_KEY
      ? { secretKey: e.STRIPE_SECRET_KEY, webhookSecret: e.STRIPE_WEBHOOK_SECRET!, apiUrl: e.STRIPE_API_URL }
      : null,
    twilio: twilioOf(e),
    s3: s3Of(e),
    testPayments: e.STRIPE_SECRET_KEY ? 'off' : e.NODE_ENV !== 'production' || e.ALLOW_TEST_PAYMENTS === 'true' ? 'allowed' : 'refused',
    googlePlaces: e.GOOGLE_MAPS_API_KEY ? { apiKey: e.GOOGLE_MAPS_API_KEY, url: e.GOOGLE_PLACES_URL.replace(/\/$/, '') } : null,
    mapTiles: mapTilesOf(e),
    googleMapTiles: e.GOOGLE_MAPS_API_KEY && !e.MAP_TILE_URL ? { apiKey: e.GOOGLE_MAPS_API_KEY, url: e.GOOGLE_TILES_URL.replace(/\/$/, '') } : null,
    // On by default on the embedded database only: a server is someone's real directory.
    sampleSites: e.SAMPLE_SITES ? e.SAMPLE_SITES === 'true' : !e.DATABASE_URL,
    support: {
      phone: e.SUPPORT_PHONE,
      phoneHref: `tel:${normalisePhone(e.SUPPORT_PHONE)}`,
      address: e.SUPPORT_ADDRESS,
      homeUrl: e.HOME_URL,
      blogUrl: e.BLOG_URL ?? null,
    },
    registry: {
      name: e.REGISTRY_NAME,
      phone: e.REGISTRY_PHONE ?? `${e.SUPPORT_PHONE} ext. ${support.lookupExtension}`,
      phoneHref: e.REGISTRY_PHONE ? `tel:${normalisePhone(e.REGISTRY_PHONE)}` : `tel:${normalisePhone(e.SUPPORT_PHONE)},${support.lookupExtension}`,
    },
    legalFiles: { privacy: e.PRIVACY_FILE && resolve(e.PRIVACY_FILE), terms: e.TERMS_FILE && resolve(e.TERMS_FILE) },
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT === 'auto' ? (process.stdout.isTTY ? 'pretty' : 'json') : e.LOG_FORMAT,
    trustProxy: e.TRUST_PROXY,
    rateLimitAllowList: e.RATE_LIMIT_ALLOWLIST,
    foundReportEscalation: { backupAfterMinutes: e.FOUND_REPORT_BACKUP_AFTER_MINUTES, vetsAfterMinutes: e.FOUND_REPORT_VETS_AFTER_MINUTES },
    inboundMail: inboundMailOf(e),
    contactReconfirmMonths: e.CONTACT_RECONFIRM_MONTHS,
    operations: operationsOf(e),
  };
}

/** The warning logged at start when payments are simulated (no Stripe), or null. */
export function testPaymentsWarning(config: Pick<Config, 'testPayments'>): string | null {
  if (config.testPayments === 'off') return null;
  const simulated = 'Payments are simulated: STRIPE_SECRET_KEY is not set, so the portal\'s own checkout takes test cards and charges nothing';
  return config.testPayments === 'allowed'
    ? `${simulated}.`
    : `${simulated}; with NODE_ENV=production it refuses them (ALLOW_TEST_PAYMENTS=true allows them).`;
}

/** JWT_SECRET, or a secret generated on first start and kept in DATA_DIR so sessions survive restarts. */
export function resolveJwtSecret(config: Config): string {
  if (config.jwtSecret) return config.jwtSecret;
  const file = join(config.dataDir, 'jwt-secret');
  if (existsSync(file)) return readFileSync(file, 'utf8').trim();
  mkdirSync(config.dataDir, { recursive: true });
  const secret = randomBytes(48).toString('base64url');
  writeFileSync(file, secret, { mode: 0o600 });
  return secret;
}
