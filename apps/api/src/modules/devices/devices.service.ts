import {
  deviceLifecycle,
  type DeviceAction,
  type DeviceStatus,
  type HoldReason,
} from '@inventory/contract';
import type { Transaction } from '../../db/db.js';
import {
  runTransitions,
  type LifecycleStore,
  type TransitionRef,
  type TransitionStep,
} from '../../toolkit/lifecycle.js';
import type { Principal, RequestMeta } from '../../http/principal.js';

/**
 * Devices on the contract's lifecycle. A device leaving for its vendor leaves its box; every step
 * goes on the device's timeline with the box (warehouse or inventory box) it is in after it.
 */
export const deviceLifecycleStore: LifecycleStore<DeviceStatus, DeviceAction, HoldReason> = {
  lifecycle: deviceLifecycle,
  table: 'devices',
  label: 'identifier',
  effects: { return_to_vendor: 'warehouse_box_id = NULL' },
  writeEvents: (tx, { type, steps, actor, ref, data }) =>
    tx.query(
      `INSERT INTO device_events (device_id, actor_id, actor_name, type, from_status, to_status,
         container, ref_type, ref_id, data)
       SELECT s.id, $4, $5, $6, s.from_status, s.to_status, COALESCE(ib.code, wb.code), $7, $8,
         $9::jsonb
       FROM unnest($1::bigint[], $2::text[], $3::text[]) AS s (id, from_status, to_status)
       JOIN devices d ON d.id = s.id
       LEFT JOIN warehouse_boxes wb ON wb.id = d.warehouse_box_id
       LEFT JOIN inventory_boxes ib ON ib.id = d.inventory_box_id`,
      [
        steps.map((step) => step.id),
        steps.map((step) => step.from),
        steps.map((step) => step.to),
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
  /** What caused the step: a blacklist entry, a vendor transfer. */
  readonly ref?: TransitionRef;
  readonly data?: Record<string, unknown>;
  /** Devices that cannot take the step are left as they are instead of failing the whole call. */
  readonly skipRefused?: boolean;
};

export type DeviceStep = TransitionStep<DeviceStatus>;

/**
 * The one way a device's status changes (DOMAIN.md invariant 6): the lifecycle's set-based run
 * over the devices, in the caller's transaction. Answers the steps taken.
 */
export const applyDeviceAction = (
  tx: Transaction,
  actor: Principal,
  meta: RequestMeta,
  input: DeviceActionInput,
): Promise<DeviceStep[]> =>
  runTransitions(tx, deviceLifecycleStore, {
    ids: input.deviceIds,
    action: input.action,
    actor,
    meta,
    reason: input.holdReason,
    ref: input.ref,
    data: input.data,
    skipRefused: input.skipRefused,
  });
