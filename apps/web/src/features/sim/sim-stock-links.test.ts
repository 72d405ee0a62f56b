import { describe, expect, it } from 'vitest';
import { simLinkPath, simStepWords } from './sim-stock-links';

describe("a SIM step's links", () => {
  it('lead to the page of what the step names', () => {
    expect(simLinkPath({ kind: 'box', id: 3, label: 'SB-000003' })).toBe(
      '/sim/box?search=SB-000003',
    );
    expect(simLinkPath({ kind: 'pack', id: 7, label: 'SP-000007' })).toBe('/sim?pack_id=7');
    expect(simLinkPath({ kind: 'agent', id: 9, label: 'Ann' })).toBe('/sim?agent_id=9');
    expect(simLinkPath({ kind: 'request', id: 4, label: 'SR-000004' })).toBe(
      '/sim/request?request=4',
    );
    expect(simLinkPath({ kind: 'device', id: 5, label: '356938035643809' })).toBe(
      '/devices/scan?code=356938035643809',
    );
  });

  it('tell a box receipt from an agent receiving the SIM', () => {
    expect(simStepWords({ type: 'received', from_status: null })).toBe('Received in a box');
    expect(simStepWords({ type: 'received', from_status: 'in_transit' })).toBe(
      'Received by the agent',
    );
    expect(simStepWords({ type: 'marked_lost', from_status: 'in_stock' })).toBe('Marked lost');
  });
});
