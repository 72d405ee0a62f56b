import { defineConfig, type PlaywrightTestConfig } from '@playwright/test';
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LANES, laneURL, refuseSharedTags } from './lanes';

refuseSharedTags(dirname(fileURLToPath(import.meta.url)));

const FIRST_START = ['first-login.spec.ts', 'first-start.setup.ts'];

/**
 * The specs that take a minute and more in CI. Playwright hands each spec file to whichever lane
 * is free, in order; these go first, so that the run does not end with one lane working through a
 * long journey while the other has nothing left.
 */
const LONG_SPECS = [
  'accessibility.spec.ts',
  'devices.spec.ts',
  'invoices.spec.ts',
  'master-data.spec.ts',
  'outbound-day.spec.ts',
  'production-line.spec.ts',
  'production.spec.ts',
  'repair.spec.ts',
  'selling.spec.ts',
  'stock.spec.ts',
  'ux.spec.ts',
];

/**
 * A worker's lane is its parallel index, which Playwright sets in the worker's environment before
 * it reads this file there: a spec's pages and API calls go to that lane's server. A spec file
 * runs whole in one worker, so it never meets another lane's data.
 */
const ownLane = { baseURL: laneURL(Number(process.env.TEST_PARALLEL_INDEX ?? 0)) };

const projects: PlaywrightTestConfig['projects'] = [
  // The first lane's first start is the browser journey that must see admin / admin; the others
  // are set up through the API. The specs sign in with the password both choose.
  { name: 'first-start', testMatch: FIRST_START, use: { baseURL: laneURL(0) } },
  { name: 'long', testMatch: LONG_SPECS, dependencies: ['first-start'], use: ownLane },
  {
    name: 'areas',
    testMatch: '*.spec.ts',
    testIgnore: [...FIRST_START, ...LONG_SPECS],
    dependencies: ['first-start'],
    use: ownLane,
  },
];

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
    // No trace: recording one (a screencast and a DOM snapshot at every step) took a fifth of
    // the browser tests' time, and CI keeps only the log. `--trace retain-on-failure` keeps one.
    trace: 'off',
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
    url: `${laneURL(lane)}/api/v1/health`,
    env: { PORT: new URL(laneURL(lane)).port, HOST: '127.0.0.1' },
    reuseExistingServer: false,
    timeout: 120_000,
  })),
});
