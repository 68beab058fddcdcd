import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from '@playwright/test';

const port = Number(process.env.E2E_PORT ?? 3100);
// One fresh data folder per run; workers inherit it, so tests can open the mail the portal wrote.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'petreg-e2e-'));

export const admin = { email: 'admin@example.com', password: 'Admin#Pass1' };

export default defineConfig({
  testDir: './tests',
  // Sized for a loaded machine (2 cores shared by several test runs), where a page can take 10 s to
  // render: these only bound how long a wait that will succeed may take, they never repeat a step.
  timeout: 180_000,
  expect: { timeout: 30_000 },
  fullyParallel: true,
  workers: 2,
  retries: 0,
  reporter: process.env.CI ? [['list']] : [['list'], ['html', { open: 'never' }]],
  outputDir: 'test-results',
  use: {
    baseURL: `http://localhost:${port}`,
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
    launchOptions: {
      executablePath: '/usr/bin/chromium',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
      ],
    },
  },
  // The portal as a user starts it: the built server on its embedded defaults, in a fresh data folder.
  webServer: {
    command: 'node server/dist/main.js',
    cwd: '..',
    url: `http://localhost:${port}/api/v2/utilities/health-check`,
    timeout: 120_000,
    reuseExistingServer: false,
    env: {
      PORT: String(port),
      DATA_DIR: process.env.E2E_DATA_DIR,
      ADMIN_EMAIL: admin.email,
      ADMIN_PASSWORD: admin.password,
      LOG_LEVEL: 'warn',
      // Every browser and API call of the journeys comes from this machine; the API tests cover the limits.
      RATE_LIMIT_ALLOWLIST: '127.0.0.1,::1,::ffff:127.0.0.1',
    },
  },
});
