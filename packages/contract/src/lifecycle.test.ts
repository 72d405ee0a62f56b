import { describe, expect, it } from 'vitest';
import type { AccessSubject } from './access.js';
import {
  allowedActions,
  BEFORE_HOLD,
  canRun,
  defineLifecycle,
  nextStatus,
  type LifecycleAction,
} from './lifecycle.js';
import { deviceLifecycle } from './receiving/device-states.js';

/** The order of DOMAIN.md 3.2, cut down: a side hold with reasons, a cancel from many states. */
const order = defineLifecycle({
  name: 'order',
  states: ['pending', 'ready', 'assigned', 'shipped', 'on_hold', 'cancelled', 'delivered'],
  terminal: ['cancelled', 'delivered'],
  hold: { state: 'on_hold', reasons: ['no_stock', 'address', 'fraud_review'] },
  actions: {
    validate: { from: ['pending'], to: 'ready', label: 'be validated', event: 'validated' },
    assign: {
      from: ['ready'],
      to: 'assigned',
      label: 'be assigned',
      event: 'assigned',
      permission: { permission: 'order.assignment' },
    },
    ship: { from: ['assigned'], to: 'shipped', label: 'ship', event: 'shipped' },
    deliver: { from: ['shipped'], to: 'delivered', label: 'be delivered', event: 'delivered' },
    put_on_hold: {
      from: ['pending', 'ready', 'assigned'],
      to: 'on_hold',
      label: 'be put on hold',
      event: 'held',
      reason: 'required',
    },
    release: { from: ['on_hold'], to: BEFORE_HOLD, label: 'release the hold', event: 'released' },
    cancel: {
      from: ['pending', 'ready', 'assigned', 'on_hold'],
      to: 'cancelled',
      label: 'be cancelled',
      event: 'cancelled',
      reason: 'optional',
      permission: { permission: 'order.cancel' },
    },
  },
});

const subject = (...permissions: string[]): AccessSubject => ({
  allRoles: [],
  allRoleKeys: [],
  allPermissions: permissions,
});

describe('a declared lifecycle', () => {
  it('moves a record as its actions say, a released hold back where it was', () => {
    expect(nextStatus(order, { status: 'pending' }, 'validate')).toEqual({
      ok: true,
      status: 'ready',
    });
    expect(
      nextStatus(order, { status: 'on_hold', status_before_hold: 'assigned' }, 'release'),
    ).toEqual({ ok: true, status: 'assigned' });
    // A hold that does not know where it came from goes back to the first state.
    expect(nextStatus(order, { status: 'on_hold' }, 'release')).toEqual({
      ok: true,
      status: 'pending',
    });
  });

  it('says in words why a state does not allow an action', () => {
    expect(nextStatus(order, { status: 'shipped' }, 'cancel')).toEqual({
      ok: false,
      message: 'An order that is shipped cannot be cancelled.',
    });
    expect(nextStatus(order, { status: 'on_hold' }, 'put_on_hold')).toEqual({
      ok: false,
      message: 'The order is on hold already.',
    });
    expect(nextStatus(order, { status: 'on_hold' }, 'ship')).toEqual({
      ok: false,
      message: 'The order is on hold: release the hold before you ship.',
    });
  });

  it('offers only what the state allows and the user may run', () => {
    const held = { status: 'on_hold', status_before_hold: 'ready' } as const;
    expect(allowedActions(order, held, subject())).toEqual(['release']);
    expect(allowedActions(order, held, subject('order.cancel'))).toEqual(['release', 'cancel']);
    expect(allowedActions(order, { status: 'ready' }, subject('order.assignment'))).toEqual([
      'assign',
      'put_on_hold',
    ]);
    expect(allowedActions(order, { status: 'delivered' }, subject('order.cancel'))).toEqual([]);
    expect(canRun(order, { status: 'pending' }, 'validate', null)).toBe(false);
    expect(
      canRun(order, { status: 'pending' }, 'cancel', { allRoles: ['Admin'], allPermissions: [] }),
    ).toBe(true);
  });

  it('is refused at declaration when it contradicts itself', () => {
    const declare = (actions: Record<string, LifecycleAction<'open' | 'held' | 'done'>>) => () =>
      defineLifecycle({
        name: 'job',
        states: ['open', 'held', 'done'],
        terminal: ['done'],
        hold: { state: 'held', reasons: ['why'] },
        actions,
      });
    const finish = { from: ['open'], to: 'done', label: 'finish', event: 'finished' } as const;
    expect(declare({ finish })).not.toThrow();
    expect(declare({ reopen: { ...finish, from: ['done'], to: 'open' } })).toThrow(
      'The job lifecycle: reopen leaves the terminal state done.',
    );
    expect(declare({ back: { ...finish, from: ['open'], to: BEFORE_HOLD } })).toThrow(
      'back goes back to the state before a hold, so it starts from the hold only.',
    );
    expect(declare({ hold: { ...finish, from: ['open'], to: 'held' } })).toThrow(
      'hold puts on hold, so it requires a reason.',
    );
    expect(
      declare({ hold: { ...finish, from: ['open', 'held'], to: 'held', reason: 'required' } }),
    ).toThrow('hold puts on hold what is held already.');
  });
});

describe('the device lifecycle as declared', () => {
  it('lets the blacklist team clear a hold and the returns team send a held device back', () => {
    const held = { status: 'hold', status_before_hold: 'graded' } as const;
    expect(allowedActions(deviceLifecycle, held, subject('device.black-list'))).toEqual([
      'clear_hold',
    ]);
    expect(allowedActions(deviceLifecycle, held, subject('transfer.manage'))).toEqual([
      'return_to_vendor',
    ]);
    // Delivery is the carrier's tracking, a return the scanning station's and a loss the paid
    // claim's: no person's own right, they are the steps from shipped; a delivered device leaves
    // only by a return.
    expect(allowedActions(deviceLifecycle, { status: 'shipped' }, subject())).toEqual([
      'deliver',
      'receive_return',
      'mark_lost',
    ]);
    expect(allowedActions(deviceLifecycle, { status: 'delivered' }, subject())).toEqual([
      'receive_return',
    ]);
    expect(allowedActions(deviceLifecycle, { status: 'graded' }, subject())).toEqual(['hold']);
  });
});
