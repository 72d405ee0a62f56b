// @vitest-environment node
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { afterAll, expect, it } from 'vitest';

/**
 * The lint rules of ARCHITECTURE.md's import rules fail on what they forbid: a few files written
 * into a feature folder for the length of one lint run (the rules read the files on disk).
 */
const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../../..');
const FIXTURE = path.join(ROOT, `apps/web/src/features/.lint-fixture-${process.pid}`);

const FILES: Record<string, string> = {
  // A cycle of types only: it ties the files together all the same.
  'order-types.ts':
    "import type { Line } from './line-types';\nexport type Order = { lines: Line[] };\n",
  'line-types.ts':
    "import type { Order } from './order-types';\nexport type Line = { order?: Order };\n",
  'first.ts': "import { second } from './second';\nexport const first = () => second();\n",
  'second.ts': "import { first } from './first';\nexport const second = (): number => first();\n",
  // Another feature's inside, not its index.
  'deep.ts':
    "import { eventWords } from '../inventory/device-words';\nexport const words = eventWords;\n",
};

afterAll(() => fs.rmSync(FIXTURE, { recursive: true, force: true }));

it('lint fails on an import cycle and on an import past another area’s index', async () => {
  fs.mkdirSync(FIXTURE);
  for (const [name, text] of Object.entries(FILES))
    fs.writeFileSync(path.join(FIXTURE, name), text);
  const eslint = path.join(ROOT, 'node_modules/eslint/bin/eslint.js');
  const run = promisify(execFile)(process.execPath, [eslint, '--format', 'json', FIXTURE], {
    cwd: ROOT,
  });
  const output = await run.then(
    (done) => done.stdout,
    (failed: { stdout: string }) => failed.stdout,
  );
  fs.rmSync(FIXTURE, { recursive: true, force: true });
  const results = JSON.parse(output) as {
    filePath: string;
    messages: { ruleId: string | null }[];
  }[];
  const rulesOf = Object.fromEntries(
    results.map((result) => [
      path.basename(result.filePath),
      result.messages.map((message) => message.ruleId),
    ]),
  );
  expect(rulesOf).toEqual({
    'order-types.ts': ['architecture/no-cycle'],
    'line-types.ts': ['architecture/no-cycle'],
    'first.ts': ['architecture/no-cycle'],
    'second.ts': ['architecture/no-cycle'],
    'deep.ts': ['architecture/area-index'],
  });
}, 60_000);
