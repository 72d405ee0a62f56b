import {
  parseIccid,
  type SimStep,
  type SimStepLink,
  type SimStepLinkKind,
  type SimStory,
  type SimStoryAnomaly,
} from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { fieldError, NotFoundError } from '../../http/errors.js';
import { isoTextSql } from '../../http/sql.js';
import { SIM_CARD_COLUMNS, SIM_CARD_FROM } from './sim-cards.store.js';

/**
 * The SIM lookup (DOMAIN.md 4.6 `/sim/inquire`): a SIM's story from its timeline. Each step
 * names what it concerns in its data (the keys below, or the lifecycle's `ref`); the lookup reads
 * their codes, numbers and names in one statement per kind for the whole timeline.
 */

/** The data keys (and `ref` types) that name what a step concerns, by kind. */
const KEYS: Record<SimStepLinkKind, { keys: readonly string[]; refs: readonly string[] }> = {
  box: { keys: ['box_id', 'sim_box_id'], refs: ['sim_box'] },
  pack: { keys: ['pack_id', 'sim_pack_id'], refs: ['sim_pack'] },
  request: { keys: ['sim_request_id', 'request_id'], refs: ['sim_request'] },
  agent: { keys: ['from_agent_id', 'agent_id'], refs: ['agent'] },
  order: { keys: ['order_id'], refs: ['order'] },
  device: { keys: ['device_id'], refs: ['device'] },
  return: { keys: ['sim_return_id', 'return_id'], refs: ['sim_return'] },
  detection: { keys: ['run_id', 'detection_run_id'], refs: ['sim_detection_run'] },
};

/** How each kind's label is read, by id. */
const LABELS: Record<SimStepLinkKind, string> = {
  box: 'SELECT id::int AS id, code AS label FROM sim_boxes WHERE id = ANY ($1::bigint[])',
  pack: 'SELECT id::int AS id, code AS label FROM sim_packs WHERE id = ANY ($1::bigint[])',
  request: 'SELECT id::int AS id, number AS label FROM sim_requests WHERE id = ANY ($1::bigint[])',
  agent: 'SELECT id::int AS id, name AS label FROM users WHERE id = ANY ($1::bigint[])',
  order: 'SELECT id::int AS id, number AS label FROM orders WHERE id = ANY ($1::bigint[])',
  device: 'SELECT id::int AS id, identifier AS label FROM devices WHERE id = ANY ($1::bigint[])',
  return: 'SELECT id::int AS id, number AS label FROM sim_returns WHERE id = ANY ($1::bigint[])',
  detection: `SELECT id::int AS id, 'Detection run ' || id AS label FROM sim_detection_runs
    WHERE id = ANY ($1::bigint[])`,
};

type EventRow = Omit<SimStep, 'links' | 'reason'> & { data: Record<string, unknown> | null };

const idOf = (value: unknown): number | null => {
  const id = typeof value === 'string' ? Number(value) : value;
  return typeof id === 'number' && Number.isSafeInteger(id) && id > 0 ? id : null;
};

/** What a step names, kind by kind, in the order of KEYS. */
function namedIds(data: Record<string, unknown> | null): [SimStepLinkKind, number][] {
  if (!data) return [];
  const ref = data.ref as { type?: unknown; id?: unknown } | undefined;
  const named: [SimStepLinkKind, number][] = [];
  for (const [kind, { keys, refs }] of Object.entries(KEYS) as [
    SimStepLinkKind,
    (typeof KEYS)[SimStepLinkKind],
  ][]) {
    const ids = new Set<number>();
    for (const key of keys) {
      const id = idOf(data[key]);
      if (id !== null) ids.add(id);
    }
    const refId = ref && refs.includes(String(ref.type)) ? idOf(ref.id) : null;
    if (refId !== null) ids.add(refId);
    for (const id of ids) named.push([kind, id]);
  }
  return named;
}

export async function inquireSim(db: Queryable, raw: string): Promise<SimStory> {
  const parsed = parseIccid(raw);
  if (!parsed.ok) throw fieldError('iccid', parsed.message);
  const { iccid } = parsed.value;
  const [sim] = await db.query<SimStory['sim']>(
    `SELECT ${SIM_CARD_COLUMNS} FROM ${SIM_CARD_FROM} WHERE c.iccid = $1`,
    [iccid],
  );
  if (!sim) throw new NotFoundError(`No SIM has ICCID ${iccid}.`);
  const [events, anomalies] = await Promise.all([
    db.query<EventRow>(
      `SELECT id::int AS id, ${isoTextSql('at')} AS at, type, from_status, to_status, actor_name,
         data
       FROM sim_events WHERE sim_id = $1 ORDER BY id`,
      [sim.id],
    ),
    db.query<SimStoryAnomaly>(
      `SELECT id::int AS id, kind, detail, status, resolution, run_id::int AS run_id,
         ${isoTextSql('created_at')} AS created_at
       FROM sim_anomalies WHERE sim_id = $1 ORDER BY id`,
      [sim.id],
    ),
  ]);
  const named = events.map((event) => namedIds(event.data));
  const wanted = new Map<SimStepLinkKind, Set<number>>();
  for (const [kind, id] of named.flat()) {
    const ids = wanted.get(kind) ?? new Set<number>();
    ids.add(id);
    wanted.set(kind, ids);
  }
  const labels = new Map<string, string>();
  await Promise.all(
    [...wanted].map(async ([kind, ids]) => {
      const rows = await db.query<{ id: number; label: string }>(LABELS[kind], [[...ids]]);
      for (const row of rows) labels.set(`${kind}:${row.id}`, row.label);
    }),
  );
  const steps = events.map(({ data, ...event }, i): SimStep => {
    const links = named[i]!.flatMap(([kind, id]): SimStepLink[] => {
      const label = labels.get(`${kind}:${id}`);
      return label === undefined ? [] : [{ kind, id, label }];
    });
    const reason = typeof data?.reason === 'string' ? data.reason : null;
    return { ...event, reason, links };
  });
  return { sim, steps, anomalies };
}
