import { mkdtempSync, readFileSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { loggerOptions } from '../src/app.js';
import { loadConfig, resolveJwtSecret, testPaymentsWarning } from '../src/config.js';

const twilioSid = `AC${'0'.repeat(32)}`;

describe('configuration', () => {
  it('runs on embedded defaults with no variables set', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      databasePoolMode: 'session',
      publicUrl: 'http://localhost:3000',
      smtpUrl: undefined,
      admin: { email: 'admin@localhost', password: undefined },
    });
    expect(config.dataDir).toBe(join(process.cwd(), 'data'));
  });

  it('escalates an unopened found report after 15 minutes and 2 hours unless told otherwise', () => {
    expect(loadConfig({}).foundReportEscalation).toEqual({ backupAfterMinutes: 15, vetsAfterMinutes: 120 });
    expect(loadConfig({ FOUND_REPORT_BACKUP_AFTER_MINUTES: '5', FOUND_REPORT_VETS_AFTER_MINUTES: '60' }).foundReportEscalation).toEqual({
      backupAfterMinutes: 5,
      vetsAfterMinutes: 60,
    });
  });

  it('texts through Twilio only when its account, token and a sender are all set', () => {
    expect(loadConfig({}).twilio).toBeNull();
    expect(loadConfig({ TWILIO_ACCOUNT_SID: twilioSid, TWILIO_AUTH_TOKEN: 'token', TWILIO_FROM: '(314) 555-0100' }).twilio).toEqual({
      accountSid: twilioSid,
      authToken: 'token',
      sender: { from: '+13145550100' },
      apiUrl: undefined,
    });
  });

  it('follows PORT in the default public address', () => {
    expect(loadConfig({ PORT: '8080' }).publicUrl).toBe('http://localhost:8080');
  });

  it.each([
    [{ PORT: 'abc' }, /^Invalid configuration: PORT /],
    [{ DATABASE_URL: 'mysql://x' }, /^Invalid configuration: DATABASE_URL must start with postgres:\/\//],
    [{ DATABASE_POOL_MODE: 'statement' }, /^Invalid configuration: DATABASE_POOL_MODE /],
    [{ JWT_SECRET: 'short' }, /^Invalid configuration: JWT_SECRET must be at least 32 characters/],
    [{ ADMIN_EMAIL: 'nope' }, /^Invalid configuration: ADMIN_EMAIL /],
    [{ PUBLIC_URL: 'not a url' }, /^Invalid configuration: PUBLIC_URL /],
    [{ HOME_URL: 'www.example.org' }, /^Invalid configuration: HOME_URL must be a path or an address/],
    [{ BLOG_URL: 'blog' }, /^Invalid configuration: BLOG_URL /],
    [{ PRODUCTION_HOST: 'https://registry.example.com/' }, /^Invalid configuration: PRODUCTION_HOST must be a host name/],
    [{ FACEBOOK_APP_ID: '1' }, /FACEBOOK_APP_SECRET is required/],
    [{ STRIPE_SECRET_KEY: 'sk_live_x' }, /STRIPE_WEBHOOK_SECRET is required/],
    [{ SUPPORT_PHONE: 'call us' }, /^Invalid configuration: SUPPORT_PHONE must be a phone number/],
    [{ REGISTRY_PHONE: 'around the clock' }, /^Invalid configuration: REGISTRY_PHONE must be a phone number/],
    [{ PRIVACY_FILE: '/nonexistent/privacy.md' }, /^Invalid configuration: PRIVACY_FILE must name an existing file/],
    [{ TRUST_PROXY: 'true' }, /^Invalid configuration: TRUST_PROXY must be a hop count \(1 behind one load balancer\) or the proxies' addresses/],
    [{ TRUST_PROXY: '10.0.0.0/33' }, /^Invalid configuration: TRUST_PROXY must be a hop count/],
    [{ TRUST_PROXY: '10.0.0.1, lb.internal' }, /^Invalid configuration: TRUST_PROXY must be a hop count/],
    [{ MAP_TILE_URL: 'https://tile.example.org/tiles.png' }, /^Invalid configuration: MAP_TILE_URL must be a tile address with \{z\}, \{x\} and \{y\}/],
    [{ MAP_TILE_URL: 'tiles/{z}/{x}/{y}.png' }, /^Invalid configuration: MAP_TILE_URL must be a tile address/],
    [{ FOUND_REPORT_BACKUP_AFTER_MINUTES: '0' }, /^Invalid configuration: FOUND_REPORT_BACKUP_AFTER_MINUTES must be from 1 to 10080 minutes/],
    [{ FOUND_REPORT_VETS_AFTER_MINUTES: '1.5' }, /^Invalid configuration: FOUND_REPORT_VETS_AFTER_MINUTES must be a whole number of minutes/],
    [{ FOUND_REPORT_VETS_AFTER_MINUTES: '20000' }, /^Invalid configuration: FOUND_REPORT_VETS_AFTER_MINUTES must be from 1 to 10080 minutes/],
    [{ TWILIO_ACCOUNT_SID: twilioSid }, /^Invalid configuration: Twilio needs .* \(missing TWILIO_AUTH_TOKEN, TWILIO_FROM or TWILIO_MESSAGING_SERVICE_SID\)$/],
    [{ TWILIO_FROM: '+13145550100' }, /\(missing TWILIO_ACCOUNT_SID, TWILIO_AUTH_TOKEN\)$/],
    [{ TWILIO_ACCOUNT_SID: 'sid', TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+13145550100' }, /^Invalid configuration: TWILIO_ACCOUNT_SID must be an account SID/],
    [{ TWILIO_ACCOUNT_SID: twilioSid, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: 'our number' }, /^Invalid configuration: TWILIO_FROM must be a phone number/],
    [{ TWILIO_ACCOUNT_SID: twilioSid, TWILIO_AUTH_TOKEN: 't', TWILIO_FROM: '+13145550100', TWILIO_MESSAGING_SERVICE_SID: `MG${'0'.repeat(32)}` }, /not both$/],
  ])('stops with one line naming the variable for %j', (env, message) => {
    expect(() => loadConfig(env)).toThrow(message);
  });

  it('names the registry and its 24/7 line in the open lookup: the support line\'s extension 703 unless a line of its own is set', () => {
    expect(loadConfig({ SUPPORT_PHONE: '(314) 555-0100' }).registry).toEqual({ name: 'Pet Registry', phone: '(314) 555-0100 ext. 703', phoneHref: 'tel:+13145550100,703' });
    expect(loadConfig({ REGISTRY_NAME: 'Gateway Pet Registry', REGISTRY_PHONE: '314-555-0199' }).registry).toEqual({
      name: 'Gateway Pet Registry',
      phone: '314-555-0199',
      phoneHref: 'tel:+13145550199',
    });
  });

  it.each([
    [{}, false],
    [{ TRUST_PROXY: 'false' }, false],
    [{ TRUST_PROXY: '0' }, false],
    [{ TRUST_PROXY: '2' }, 2],
    [{ TRUST_PROXY: '10.0.0.7' }, ['10.0.0.7']],
    [{ TRUST_PROXY: '173.245.48.0/20, 2400:cb00::/32,loopback' }, ['173.245.48.0/20', '2400:cb00::/32', 'loopback']],
  ])('reads TRUST_PROXY %j as a hop count or the proxies\' addresses', (env, trustProxy) => {
    expect(loadConfig(env).trustProxy).toEqual(trustProxy);
  });

  it('simulates payments without Stripe, says so, and refuses them in production unless ALLOW_TEST_PAYMENTS=true', () => {
    const simulated = "Payments are simulated: STRIPE_SECRET_KEY is not set, so the portal's own checkout takes test cards and charges nothing";
    expect(loadConfig({}).testPayments).toBe('allowed');
    expect(testPaymentsWarning(loadConfig({}))).toBe(`${simulated}.`);
    expect(loadConfig({ NODE_ENV: 'production' }).testPayments).toBe('refused');
    expect(testPaymentsWarning(loadConfig({ NODE_ENV: 'production' }))).toBe(
      `${simulated}; with NODE_ENV=production it refuses them (ALLOW_TEST_PAYMENTS=true allows them).`,
    );
    expect(loadConfig({ NODE_ENV: 'production', ALLOW_TEST_PAYMENTS: 'true' }).testPayments).toBe('allowed');
    const stripe = loadConfig({ NODE_ENV: 'production', STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' });
    expect(stripe.testPayments).toBe('off');
    expect(testPaymentsWarning(stripe)).toBeNull();
    expect(() => loadConfig({ ALLOW_TEST_PAYMENTS: 'yes' })).toThrow(/^Invalid configuration: ALLOW_TEST_PAYMENTS /);
  });

  it('generates the JWT secret once and keeps it in DATA_DIR', () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'petreg-config-'));
    const config = loadConfig({ DATA_DIR: dataDir });
    const secret = resolveJwtSecret(config);
    expect(secret.length).toBeGreaterThanOrEqual(32);
    expect(resolveJwtSecret(config)).toBe(secret);
    expect(readFileSync(join(dataDir, 'jwt-secret'), 'utf8')).toBe(secret);
    expect(statSync(join(dataDir, 'jwt-secret')).mode & 0o077).toBe(0);
    expect(resolveJwtSecret(loadConfig({ DATA_DIR: dataDir, JWT_SECRET: 'x'.repeat(32) }))).toBe('x'.repeat(32));
  });
});

describe('log format', () => {
  const onTerminal = (isTTY: boolean, job: () => void) => {
    const before = process.stdout.isTTY;
    process.stdout.isTTY = isTTY;
    try {
      job();
    } finally {
      process.stdout.isTTY = before;
    }
  };

  it('prints readable lines on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    onTerminal(true, () => {
      expect(loadConfig({}).logFormat).toBe('pretty');
      expect(loadConfig({ LOG_FORMAT: 'json' }).logFormat).toBe('json');
    });
    onTerminal(false, () => {
      expect(loadConfig({}).logFormat).toBe('json');
      expect(loadConfig({ LOG_FORMAT: 'pretty' }).logFormat).toBe('pretty');
    });
    expect(() => loadConfig({ LOG_FORMAT: 'xml' })).toThrow(/^Invalid configuration: LOG_FORMAT /);
  });

  it('sends pretty logs through pino-pretty, which is installed, and JSON straight to stdout', () => {
    expect(loggerOptions({ logLevel: 'info', logFormat: 'json' })).toEqual({ level: 'info' });
    expect(loggerOptions({ logLevel: 'info', logFormat: 'pretty' })).toMatchObject({ transport: { target: 'pino-pretty' } });
    expect(loggerOptions({ logLevel: 'silent', logFormat: 'pretty' })).toEqual({ level: 'silent' });
    expect(import.meta.resolve('pino-pretty')).toMatch(/pino-pretty/);
  });
});
