import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The browser tests run in lanes side by side: each lane is one Playwright worker with its own
 * server on its own fresh database. Two lanes: with three, the machine's two cores ran at a load
 * of 13 (a browser renders antd pages in software), each step of a journey took seconds, and four
 * or five tests a run timed out on pages that were only slow.
 */
export const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 2));

const FIRST_PORT = Number(process.env.E2E_PORT ?? 4310);

export const laneURL = (lane: number) => `http://127.0.0.1:${FIRST_PORT + lane}`;

/**
 * A spec's `TAG` names its data (users, brands, SKUs, SIM ranges) apart from the other specs' on
 * the same server. Any spec may meet any other in a lane, so two specs with one tag fail on
 * whichever pair happens to share a lane: refuse them before anything runs.
 */
export function refuseSharedTags(directory: string) {
  const specsOfTag = new Map<string, string[]>();
  for (const file of readdirSync(directory).filter((name) => name.endsWith('.spec.ts'))) {
    const tag = /^const TAG = ([\d_]+);/m.exec(readFileSync(join(directory, file), 'utf8'))?.[1];
    if (tag) specsOfTag.set(tag, [...(specsOfTag.get(tag) ?? []), file]);
  }
  const shared = [...specsOfTag].filter(([, files]) => files.length > 1);
  if (shared.length > 0) {
    throw new Error(
      `Specs share a TAG: ${shared.map(([tag, files]) => `${tag} (${files.join(', ')})`).join('; ')}.`,
    );
  }
}
