// The public pages as a finder's browser loads them: starts the built portal as `npm start` runs it
// (node server/dist/main.js, a temporary DATA_DIR, a free PORT), registers a chipped pet through the
// API and its own test checkout, then opens each public page in Debian Chromium with a cold cache and
// prints the bytes that crossed the wire (all of them and the JavaScript, compressed as sent, headers
// included), the same scripts' gzipped size (the targets' unit), first contentful paint and largest contentful paint. Each page is opened BENCH_RUNS times (3 by default);
// the table shows the medians.
// Run: npm run build && npm run bench:pages
import { existsSync, statSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';
import { join } from 'node:path';
import { paths, withId } from '@petreg/contract';
import { chromium, type Page } from '@playwright/test';
import { registerPet, repositoryRoot as root, requireBuild, startBuiltPortal } from './builtPortal.js';

const RUNS = Number(process.env.BENCH_RUNS ?? 3);
const TARGETS = { fcpMs: 1000, lookupJsKb: 120, profileJsKb: 150 };

requireBuild();
const portal = await startBuiltPortal();
const { base } = portal;

interface Visit {
  name: string;
  path: string;
  /** What the page shows once it is usable; a lookup also types the chip and waits for the answer. */
  ready: (page: Page) => Promise<void>;
  jsTargetKb?: number;
}

interface Measure {
  totalKb: number;
  jsKb: number;
  /** The same scripts' gzip copies in web/dist: the issue's targets are in gzipped KB, and Chromium asks for brotli. */
  jsGzKb: number;
  scripts: number;
  encodings: string;
  fcpMs: number;
  lcpMs: number;
}

/** A built file's gzip copy, or the file itself when it is too small to be compressed (as the server sends it). */
function gzippedSize(path: string) {
  const file = join(root, 'web/dist', path);
  return existsSync(`${file}.gz`) ? statSync(`${file}.gz`).size : statSync(file).size;
}

const browser = await chromium.launch({
  executablePath: '/usr/bin/chromium',
  headless: true,
  args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
});

/** One cold visit: a fresh context (empty cache), every response's encoded length counted through CDP. */
async function visit({ path, ready }: Visit): Promise<Measure> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  const types = new Map<string, { type: string; encoding: string; path: string }>();
  const sizes = new Map<string, number>();
  cdp.on('Network.responseReceived', ({ requestId, type, response }) => {
    const headers = Object.fromEntries(Object.entries(response.headers).map(([key, value]) => [key.toLowerCase(), value]));
    types.set(requestId, { type, encoding: headers['content-encoding'] ?? 'identity', path: new URL(response.url).pathname });
  });
  cdp.on('Network.loadingFinished', ({ requestId, encodedDataLength }) => sizes.set(requestId, encodedDataLength));

  await page.goto(base + path, { waitUntil: 'load' });
  await ready(page);
  await page.waitForLoadState('networkidle');
  const paints = await page.evaluate(
    () =>
      new Promise<{ fcp: number; lcp: number }>((resolve) => {
        const fcp = performance.getEntriesByName('first-contentful-paint')[0]?.startTime ?? NaN;
        new PerformanceObserver((list) => {
          const entries = list.getEntries();
          resolve({ fcp, lcp: entries[entries.length - 1]?.startTime ?? NaN });
        }).observe({ type: 'largest-contentful-paint', buffered: true });
        setTimeout(() => resolve({ fcp, lcp: NaN }), 1000);
      }),
  );
  await context.close();

  let total = 0;
  let js = 0;
  let jsGz = 0;
  let scripts = 0;
  const encodings = new Set<string>();
  for (const [id, bytes] of sizes) {
    total += bytes;
    const response = types.get(id);
    if (response?.type === 'Script') {
      js += bytes;
      jsGz += gzippedSize(response.path);
      scripts++;
      encodings.add(response.encoding);
    }
  }
  return { totalKb: total / 1024, jsKb: js / 1024, jsGzKb: jsGz / 1024, scripts, encodings: [...encodings].join('+'), fcpMs: paints.fcp, lcpMs: paints.lcp };
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

try {
  const pet = await registerPet(base);
  const lookupAnswer = async (page: Page) => {
    await page.getByLabel('Microchip Number').fill(pet.chipId);
    await page.getByLabel('Microchip Number').press('Enter');
    await page.getByText('This microchip is registered!').waitFor();
  };
  const profileShown = (page: Page) => page.getByRole('heading', { name: 'Biscuit' }).waitFor();
  const visits: Visit[] = [
    { name: 'lookup page', path: paths.microchipLookup, ready: (page) => page.getByLabel('Microchip Number').waitFor(), jsTargetKb: TARGETS.lookupJsKb },
    { name: 'lookup with a result', path: paths.microchipLookup, ready: lookupAnswer, jsTargetKb: TARGETS.lookupJsKb },
    { name: 'pet profile', path: withId(paths.petProfiles, pet.publicId), ready: profileShown, jsTargetKb: TARGETS.profileJsKb },
    { name: 'short link', path: withId(paths.short, pet.shortId), ready: profileShown, jsTargetKb: TARGETS.profileJsKb },
    { name: 'sign-in page', path: paths.signIn, ready: (page) => page.getByLabel('Email').waitFor() },
  ];

  console.log(`Public pages, cold cache, Chromium headless (${RUNS} runs each, medians); ${availableParallelism()} cores, load ${loadavg()[0]!.toFixed(2)}`);
  console.log(`${'page'.padEnd(22)} ${'total KB'.padStart(9)} ${'JS KB'.padStart(7)} ${'JS gz KB'.padStart(9)} ${'scripts'.padStart(8)}  ${'encoding'.padEnd(9)} ${'FCP ms'.padStart(7)} ${'LCP ms'.padStart(7)}  targets`);
  for (const page of visits) {
    await visit(page); // Warms the server's file cache and the portal's queries; the browser starts cold each time.
    const runs: Measure[] = [];
    for (let i = 0; i < RUNS; i++) runs.push(await visit(page));
    const m = (key: 'totalKb' | 'jsKb' | 'jsGzKb' | 'fcpMs' | 'lcpMs') => median(runs.map((run) => run[key]));
    const checks = [
      m('fcpMs') < TARGETS.fcpMs ? 'FCP ok' : 'FCP NOT met',
      page.jsTargetKb && (m('jsGzKb') <= page.jsTargetKb ? `JS <= ${page.jsTargetKb} KB ok` : `JS <= ${page.jsTargetKb} KB NOT met`),
    ].filter(Boolean);
    console.log(
      `${page.name.padEnd(22)} ${m('totalKb').toFixed(1).padStart(9)} ${m('jsKb').toFixed(1).padStart(7)} ${m('jsGzKb').toFixed(1).padStart(9)} ${String(runs[0]!.scripts).padStart(8)}  ${runs[0]!.encodings.padEnd(9)} ${m('fcpMs').toFixed(0).padStart(7)} ${m('lcpMs').toFixed(0).padStart(7)}  ${checks.join(', ')}`,
    );
  }
} finally {
  await browser.close();
  await portal.stop();
}
