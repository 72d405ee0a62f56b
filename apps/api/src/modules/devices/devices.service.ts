import {
  deviceLifecycle,
  type DeviceAction,
  type DeviceStatus,
  type HoldReason,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import {
  runTransitions,
  stepArrays,
  type LifecycleStore,
  type TransitionEffect,
  type TransitionRef,
  type TransitionStep,
} from '../../toolkit/lifecycle.js';
import type { Actor, RequestMeta } from '../../http/principal.js';
import { takeOutOfInventoryBoxes } from '../inventory/index.js';

/**
 * A device leaving the building leaves its box: its warehouse box, or its inventory box, whose
 * count goes down in the same transaction. Returning to the vendor leaves; a hold does not (a held
 * device stays in its box, which putaway sends to the quarantine zone). Picking, shipping and
 * scrapping take this effect when they come.
 */
const LEAVES_ITS_BOX: TransitionEffect<DeviceStatus> = {
  set: 'warehouse_box_id = NULL',
  write: (tx, steps) =>
    takeOutOfInventoryBoxes(
      tx,
      steps.map((step) => step.id),
    ),
};

/**
 * What the stations write on a device with its step: the grading bench's readings, and the box a
 * consolidation puts it in (out of its warehouse box).
 */
const DEVICE_STATION_COLUMNS = [
  'frp_lock',
  'battery_health',
  'blacklist_state',
  'blacklist_checked_at',
  'wipe_method',
  'wipe_certificate',
  'wiped_at',
  'color_id',
  'capacity_gb',
  'grade',
  'graded_at',
  'graded_by',
  'inventory_box_id',
  'warehouse_box_id',
] as const;

/**
 * Devices on the contract's lifecycle. Every step goes on the device's timeline with the box
 * (inventory or warehouse box) it is in after it, and the station it was taken at when the run's
 * data names one.
 */
export const deviceLifecycleStore: LifecycleStore<DeviceStatus, DeviceAction, HoldReason> = {
  lifecycle: deviceLifecycle,
  table: 'devices',
  label: 'identifier',
  effects: { return_to_vendor: LEAVES_ITS_BOX, pick: LEAVES_ITS_BOX },
  columns: DEVICE_STATION_COLUMNS,
  writeEvents: (tx, { type, steps, actor, ref, data }) =>
    tx.query(
      `INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
         container, ref_type, ref_id, station, data)
       SELECT s.id, $4, $5, $6, s.from_status, s.to_status, COALESCE(ib.code, wb.code), $7, $8,
         $9::jsonb ->> 'station', $9::jsonb - 'station'
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)
       JOIN devices d ON d.id = s.id
       LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
       LEFT JOIN inventory_boxes ib ON ib.id = d.inventory_box_id`,
      [
        ...stepArrays(steps),
        actor.userId,
        actor.userName,
        type,
        ref?.type ?? null,
        ref?.id ?? null,
        JSON.stringify(data),
      ],
    ),
};

export type DeviceActionInput = {
  readonly deviceIds: readonly number[];
  readonly action: DeviceAction;
  /** For `hold`. */
  readonly holdReason?: HoldReason;
  /** For another action that takes a reason (a re-grade's, in words). */
  readonly reason?: string;
  /** What caused the step: a blacklist entry, a vendor transfer. */
  readonly ref?: TransitionRef;
  readonly data?: Record<string, unknown>;
  /** Devices that cannot take the step are left as they are instead of failing the whole call. */
  readonly skipRefused?: boolean;
  /** What a station read, written with the step (`DEVICE_STATION_COLUMNS`). */
  readonly columns?: Readonly<Record<string, unknown>>;
};

export type DeviceStep = TransitionStep<DeviceStatus>;

/**
 * The one way a device's status changes (DOMAIN.md invariant 6): the lifecycle's set-based run
 * over the devices, in the caller's transaction. Answers the steps taken.
 */
export const applyDeviceAction = (
  tx: Transaction,
  actor: Actor,
  meta: RequestMeta,
  input: DeviceActionInput,
): Promise<DeviceStep[]> =>
  runTransitions(tx, deviceLifecycleStore, {
    ids: input.deviceIds,
    action: input.action,
    actor,
    meta,
    reason: input.holdReason ?? input.reason,
    ref: input.ref,
    data: input.data,
    skipRefused: input.skipRefused,
    columns: input.columns,
  });
