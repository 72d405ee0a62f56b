import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEVICE_ACTIONS,
  DEVICE_STATUSES,
  nextDeviceStatus,
  PRE_SALE_STATUSES,
  TERMINAL_STATUSES,
  type DeviceAction,
  type DeviceState,
  type DeviceStatus,
} from './device-states.js';

/** The device lifecycle as a state machine: properties over any sequence of actions. */

const ACTIONS = Object.keys(DEVICE_ACTIONS) as DeviceAction[];
const SEED = 20261123;

const anyState: fc.Arbitrary<DeviceState> = fc.oneof(
  fc
    .constantFrom(...DEVICE_STATUSES.filter((status) => status !== 'hold'))
    .map((status) => ({ status, status_before_hold: null })),
  fc
    .constantFrom(...PRE_SALE_STATUSES)
    .map((before) => ({ status: 'hold' as const, status_before_hold: before })),
);

/** Applies actions the way the service does: a refused one leaves the device as it was. */
function run(start: DeviceState, actions: readonly DeviceAction[]) {
  let state = start;
  const trace: { action: DeviceAction; from: DeviceState; ok: boolean }[] = [];
  for (const action of actions) {
    const next = nextDeviceStatus(state, action);
    trace.push({ action, from: state, ok: next.ok });
    if (next.ok) {
      state =
        next.status === 'hold'
          ? { status: 'hold', status_before_hold: state.status }
          : { status: next.status, status_before_hold: null };
    }
  }
  return { state, trace };
}

describe('the device lifecycle', () => {
  it('lets a held device take no step but clearing the hold or going back to its vendor', () => {
    fc.assert(
      fc.property(
        anyState,
        fc.array(fc.constantFrom(...ACTIONS), { maxLength: 12 }),
        (start, actions) => {
          for (const step of run(start, actions).trace) {
            if (step.from.status === 'hold' && step.ok) {
              expect(['clear_hold', 'return_to_vendor']).toContain(step.action);
            }
          }
        },
      ),
      { seed: SEED },
    );
  });

  it('brings a cleared device back to the status it was held in', () => {
    fc.assert(
      fc.property(fc.constantFrom(...PRE_SALE_STATUSES), (status) => {
        const { state, trace } = run({ status, status_before_hold: null }, ['hold', 'clear_hold']);
        expect(trace.every((step) => step.ok)).toBe(true);
        expect(state).toEqual({ status, status_before_hold: null });
      }),
      { seed: SEED },
    );
  });

  it('never leaves a terminal status, and every step lands on a known status', () => {
    fc.assert(
      fc.property(
        anyState,
        fc.array(fc.constantFrom(...ACTIONS), { maxLength: 12 }),
        (start, actions) => {
          let terminal = false;
          for (const step of run(start, actions).trace) {
            if (terminal) expect(step.ok).toBe(false);
            terminal ||= (TERMINAL_STATUSES as readonly DeviceStatus[]).includes(step.from.status);
          }
          const { state } = run(start, actions);
          expect(DEVICE_STATUSES).toContain(state.status);
          expect(state.status === 'hold').toBe(state.status_before_hold !== null);
        },
      ),
      { seed: SEED },
    );
  });

  it('says why a step is refused, in words', () => {
    expect(nextDeviceStatus({ status: 'hold', status_before_hold: 'received' }, 'hold')).toEqual({
      ok: false,
      message: 'The device is on hold already.',
    });
    expect(
      nextDeviceStatus({ status: 'shipped', status_before_hold: null }, 'return_to_vendor'),
    ).toEqual({
      ok: false,
      message: 'A device that is shipped cannot return to its vendor.',
    });
    expect(
      nextDeviceStatus({ status: 'failed_qc', status_before_hold: null }, 'clear_hold'),
    ).toEqual({
      ok: false,
      message: 'A device that is failed QC cannot clear the hold.',
    });
  });
});
