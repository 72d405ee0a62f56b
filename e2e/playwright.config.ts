import { readdirSync } from 'node:fs';
import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';

const FIRST_PORT = Number(process.env.E2E_PORT ?? 4310);
const FIRST_START = 'first-login.spec.ts';

/**
 * The browser tests run in lanes side by side: each lane has its own server on its own fresh
 * database, its own first start (which changes the admin's password) and one worker, and takes a
 * share of the spec files. A spec never meets another lane's data. Two lanes: with three, the
 * machine's two cores ran at a load of 13 (a browser renders antd pages in software), each step
 * of a journey took seconds, and four or five tests a run timed out on pages that were only slow.
 */
const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 2));

/**
 * Minutes a spec took in three lanes in CI (the list reporter's times, summed; session 18);
 * a spec not named here counts as half a minute. They only balance the lanes: a stale figure
 * makes a run longer, never wrong.
 */
const MINUTES: Record<string, number> = {
  'accessibility.spec.ts': 13.3,
  'invoices.spec.ts': 3.2,
  'repair.spec.ts': 2.9,
  'devices.spec.ts': 2.7,
  'production.spec.ts': 2.6,
  'selling.spec.ts': 2.6,
  'production-line.spec.ts': 2.4,
  'master-data.spec.ts': 2.3,
  'receiving.spec.ts': 2.1,
  'sim-requests.spec.ts': 2.1,
  'security-headers.spec.ts': 2.0,
  'ux.spec.ts': 1.9,
  'access.spec.ts': 1.8,
  'ota-orders.spec.ts': 1.8,
  'retail.spec.ts': 1.6,
  'inventory-boxes.spec.ts': 1.5,
  'rma.spec.ts': 1.5,
  'reship.spec.ts': 1.4,
  'fulfilment.spec.ts': 1.2,
  'pts-listings.spec.ts': 1.2,
  'claims-trade-ins.spec.ts': 1.1,
  'orders.spec.ts': 1.1,
  'pricing.spec.ts': 1.1,
  'pts-catalogue.spec.ts': 1.1,
  'putaway.spec.ts': 1.1,
  'shell.spec.ts': 1.1,
  'stock.spec.ts': 1.1,
  'agent-portal.spec.ts': 1.0,
  'agent-shop.spec.ts': 1.0,
  'gaylords.spec.ts': 1.0,
  'main-dashboard.spec.ts': 1.0,
  'locations.spec.ts': 0.9,
  'product-offers.spec.ts': 0.9,
  'sim-stock.spec.ts': 0.9,
  'substitutions.spec.ts': 0.8,
  'warehouse-boxes.spec.ts': 0.8,
  'attachments.spec.ts': 0.7,
  'campaigns.spec.ts': 0.7,
  'fulfilment-dashboard.spec.ts': 0.7,
  'sim-returns.spec.ts': 0.7,
  'campaign-outbound.spec.ts': 0.6,
  'shipping.spec.ts': 0.6,
  'tracking.spec.ts': 0.6,
  'wholesale.spec.ts': 0.6,
  'device-card.spec.ts': 0.5,
  'inventory.spec.ts': 0.5,
  'unpack.spec.ts': 0.5,
  'jobs.spec.ts': 0.4,
  'web-orders.spec.ts': 0.4,
  'sim-detection.spec.ts': 0.3,
  'warehouse-dashboard.spec.ts': 0.3,
};

/** Spec files dealt to the lanes, the longest first, each to the lane with the least to do. */
function dealSpecs(): string[][] {
  const specs = readdirSync(import.meta.dirname)
    .filter((file) => file.endsWith('.spec.ts') && file !== FIRST_START)
    .map((file) => ({ file, minutes: MINUTES[file] ?? 0.5 }))
    .sort((a, b) => b.minutes - a.minutes || a.file.localeCompare(b.file));
  const lanes = Array.from({ length: LANES }, () => ({ files: [] as string[], minutes: 0 }));
  for (const spec of specs) {
    const lane = lanes.reduce((least, next) => (next.minutes < least.minutes ? next : least));
    lane.files.push(spec.file);
    lane.minutes += spec.minutes;
  }
  return lanes.map((lane) => lane.files);
}

const baseURL = (lane: number) => `http://127.0.0.1:${FIRST_PORT + lane}`;

const projects: PlaywrightTestConfig['projects'] = dealSpecs().flatMap((files, lane) => [
  // The first start must see admin / admin; the lane's specs sign in with its new password.
  {
    name: `first-start-${lane}`,
    testMatch: FIRST_START,
    workers: 1,
    use: { baseURL: baseURL(lane) },
  },
  {
    name: `areas-${lane}`,
    testMatch: files,
    dependencies: [`first-start-${lane}`],
    workers: 1,
    use: { baseURL: baseURL(lane) },
  },
]);

export default defineConfig({
  testDir: '.',
  workers: LANES,
  fullyParallel: false,
  forbidOnly: Boolean(process.env.CI),
  retries: 0,
  // A guard against a hang, not a measure of speed (that is `npm run bench`): on CI's loaded two
  // cores every step of a long journey takes seconds, and the colours journey took over a minute
  // with nothing wrong.
  timeout: 120_000,
  // The lanes share two cores: a page's first paint after a reload or a lazy chunk has taken over
  // ten seconds on a loaded run.
  expect: { timeout: 15_000 },
  reporter: [['list']],
  use: {
    trace: 'retain-on-failure',
    // The app then turns antd's animations off (shell/theme.tsx): a click never lands on a
    // dialog or bubble that is still zooming in.
    contextOptions: { reducedMotion: 'reduce' },
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
  projects,
  webServer: Array.from({ length: LANES }, (_, lane) => ({
    command: 'node e2e/start-server.mjs',
    cwd: '..',
    url: `${baseURL(lane)}/api/v1/health`,
    env: { PORT: String(FIRST_PORT + lane), HOST: '127.0.0.1' },
    reuseExistingServer: false,
    timeout: 120_000,
  })),
});
