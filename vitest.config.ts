import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

const contractSource = fileURLToPath(new URL('./packages/contract/src/index.ts', import.meta.url));
const alias = { '@inventory/contract': contractSource };

/**
 * Files that take minutes, longest first. CI starts from a clean clone, with no timings kept from
 * an earlier run, and Vitest would start them wherever they fall: one started last leaves the
 * other core idle until it ends.
 */
const LONGEST_FILES = [
  'apps/api/src/toolkit/list-indexes.test.ts',
  'apps/api/src/http/fuzz.test.ts',
  'apps/api/src/plugins/access-guard.test.ts',
  'apps/api/src/db/generate.test.ts',
];
const lengthRank = (file: TestSpecification) => {
  const rank = LONGEST_FILES.findIndex((name) => file.moduleId.endsWith(name));
  return rank === -1 ? LONGEST_FILES.length : rank;
};

class LongestFilesFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]) {
    return (await super.sort(files)).sort((a, b) => lengthRank(a) - lengthRank(b));
  }
}

export default defineConfig({
  test: {
    sequence: { sequencer: LongestFilesFirst },
    // A file per core: Vitest's default leaves one core free, which on CI's two cores halves the
    // speed (the API files measured 494 s on one worker, the whole suite 238 s on two). On a
    // PostgreSQL server one file more: its processes do part of the work while a file waits on
    // them (30 API files on two cores: 159 s on two workers, 130 s on three, 138 s on four; on
    // PGlite, inside the worker, three were slower than two).
    maxWorkers: process.env.TEST_DATABASE_URL ? availableParallelism() + 1 : '100%',
    projects: [
      {
        resolve: { alias },
        test: {
          name: 'contract',
          include: ['packages/contract/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'api',
          include: ['apps/api/src/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/api/src/test/global-setup.ts'],
          // A worker keeps the modules it has loaded from one file to the next: loading the app
          // again for each file was a third of the API tests' time. Each file still builds its
          // own app on its own database, and the app keeps its state per instance (WeakMaps on
          // the Fastify instance), so no file sees another's.
          isolate: false,
          testTimeout: 60_000,
          hookTimeout: 60_000,
        },
      },
      {
        resolve: { alias },
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'jsdom',
        },
      },
    ],
  },
});
