/**
 * The browser tests run in lanes side by side: each lane is one Playwright worker with its own
 * server on its own fresh database. Two lanes: with three, the machine's two cores ran at a load
 * of 13 (a browser renders antd pages in software), each step of a journey took seconds, and four
 * or five tests a run timed out on pages that were only slow.
 */
export const LANES = Math.max(1, Number(process.env.E2E_LANES ?? 2));

const FIRST_PORT = Number(process.env.E2E_PORT ?? 4310);

export const laneURL = (lane: number) => `http://127.0.0.1:${FIRST_PORT + lane}`;
