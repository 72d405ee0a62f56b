import { describe, expect, it } from 'vitest';
import { eventDetails, eventWords } from './device-words';

describe('the timeline in words', () => {
  it('names the events this release writes, and spells out any other', () => {
    expect(eventWords('received')).toBe('Received into a warehouse box');
    expect(eventWords('held')).toBe('Put on hold');
    expect(eventWords('hold_cleared')).toBe('Hold cleared');
    expect(eventWords('returned_to_vendor')).toBe('Returned to its vendor');
    expect(eventWords('label_printed')).toBe('Label printed');
  });

  it("writes an event's details as named lines, codes as words and free text as written", () => {
    expect(
      eventDetails({
        result: 'model_mismatch',
        invoice_no: 'INV_7',
        evidence: 'GSMA check_42 clean',
        reference: null,
        station_note: '',
      }),
    ).toEqual(['Scan result: model mismatch', 'Invoice: INV_7', 'Evidence: GSMA check_42 clean']);
    expect(eventDetails(null)).toEqual([]);
  });
});
