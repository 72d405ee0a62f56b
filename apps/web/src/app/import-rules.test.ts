// @vitest-environment node
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

/**
 * The lint rules of ARCHITECTURE.md's import rules fail on what they forbid: a few files written
 * into a temporary folder, linted with a config that points the rules at that folder (the rules
 * read the files on disk), so that nothing appears in the source trees while the test runs.
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const FIXTURE = fs.mkdtempSync(path.join(os.tmpdir(), 'import-rules-'));

const FILES: Record<string, string> = {
  // A cycle of types only: it ties the files together all the same.
  'features/orders/order-types.ts':
    "import type { Line } from './line-types';\nexport type Order = { lines: Line[] };\n",
  'features/orders/line-types.ts':
    "import type { Order } from './order-types';\nexport type Line = { order?: Order };\n",
  'features/orders/first.ts':
    "import { second } from './second';\nexport const first = () => second();\n",
  'features/orders/second.ts':
    "import { first } from './first';\nexport const second = (): number => first();\n",
  // Another feature's inside, not its index.
  'features/orders/deep.ts':
    "import { eventWords } from '../inventory/device-words';\nexport const words = eventWords;\n",
  'features/inventory/device-words.ts': "export const eventWords = ['received'];\n",
  'features/inventory/index.ts': "export { eventWords } from './device-words';\n",
};

/** The repository's two rules over the fixture's folders, and nothing else. */
const moduleUrl = (file: string) => JSON.stringify(pathToFileURL(file).href);
const CONFIG = `import architecture from ${moduleUrl(path.join(ROOT, 'scripts/eslint-plugin-architecture.mjs'))};
import tseslint from ${moduleUrl(createRequire(import.meta.url).resolve('typescript-eslint'))};
export default [
  {
    files: ['**/*.ts'],
    languageOptions: { parser: tseslint.parser },
    plugins: { architecture },
    rules: {
      'architecture/no-cycle': ['error', { sourceTrees: [${JSON.stringify(FIXTURE)}] }],
      'architecture/area-index': [
        'error',
        { areaParents: [${JSON.stringify(path.join(FIXTURE, 'features'))}] },
      ],
    },
  },
];
`;

afterAll(() => fs.rmSync(FIXTURE, { recursive: true, force: true }));

it('lint fails on an import cycle and on an import past another area’s index', async () => {
  for (const [name, text] of Object.entries(FILES)) {
    fs.mkdirSync(path.dirname(path.join(FIXTURE, name)), { recursive: true });
    fs.writeFileSync(path.join(FIXTURE, name), text);
  }
  fs.writeFileSync(path.join(FIXTURE, 'eslint.config.mjs'), CONFIG);
  const eslint = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
  const run = promisify(execFile)(process.execPath, [eslint, '--format', 'json', 'features'], {
    cwd: FIXTURE,
  });
  const output = await run.then(
    (done) => done.stdout,
    (failed: { stdout: string; stderr: string }) => failed.stdout || failed.stderr,
  );
  const results = JSON.parse(output) as {
    filePath: string;
    messages: { ruleId: string | null }[];
  }[];
  const rulesOf = Object.fromEntries(
    results.map((result) => [
      path.relative(FIXTURE, result.filePath),
      result.messages.map((message) => message.ruleId),
    ]),
  );
  expect(rulesOf).toEqual({
    'features/orders/order-types.ts': ['architecture/no-cycle'],
    'features/orders/line-types.ts': ['architecture/no-cycle'],
    'features/orders/first.ts': ['architecture/no-cycle'],
    'features/orders/second.ts': ['architecture/no-cycle'],
    'features/orders/deep.ts': ['architecture/area-index'],
    'features/inventory/device-words.ts': [],
    'features/inventory/index.ts': [],
  });
}, 60_000);
