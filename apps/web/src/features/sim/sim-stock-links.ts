import type { SimStatus, SimStepLink } from '@inventory/contract';
import { deviceLookupPath } from '../devices';

/**
 * Where each thing a SIM's step names is read (`/sim/inquire`, the SIM list's holder column):
 * a box on the boxes page found by its code, a pack's or agent's SIMs on the SIM list, a request,
 * return or order in its page's drawer, a device in the device lookup, a detection run.
 */
export function simLinkPath(link: SimStepLink): string {
  switch (link.kind) {
    case 'box':
      return `/sim/box?search=${encodeURIComponent(link.label)}`;
    case 'pack':
      return `/sim?pack_id=${link.id}`;
    case 'agent':
      return `/sim?agent_id=${link.id}`;
    case 'request':
      return `/sim/request?request=${link.id}`;
    case 'return':
      return `/sim/return?return=${link.id}`;
    case 'order':
      return `/order/list?order=${link.id}`;
    case 'device':
      return deviceLookupPath(link.label);
    case 'detection':
      return `/sim/detection?run=${link.id}`;
  }
}

/** A SIM's status as a tag's colour. */
export const SIM_STATUS_COLORS: Record<SimStatus, string> = {
  in_stock: 'green',
  allocated: 'blue',
  in_transit: 'geekblue',
  with_agent: 'cyan',
  assigned: 'purple',
  active: 'success',
  inactive: 'default',
  suspended: 'orange',
  shipped: 'blue',
  returned: 'gold',
  destroyed: 'default',
  lost: 'red',
  defective: 'volcano',
};

/** What a step of a SIM's timeline says, in words. */
export function simStepWords(step: { type: string; from_status: string | null }): string {
  if (step.type === 'received' && step.from_status === null) return 'Received in a box';
  if (step.type === 'received') return 'Received by the agent';
  if (step.type === 'split') return 'Put in a pack';
  const words = step.type.replaceAll('_', ' ');
  return `${words[0]!.toUpperCase()}${words.slice(1)}`;
}
