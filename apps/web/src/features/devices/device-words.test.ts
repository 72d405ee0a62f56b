import { describe, expect, it } from 'vitest';
import { eventDetails, eventStation, eventWords, wipeMethodWords } from './device-words';

describe('the timeline in words', () => {
  it('names the events the registry, production and consolidation write, and spells out any other', () => {
    expect(eventWords('received')).toBe('Received into a warehouse box');
    expect(eventWords('held')).toBe('Put on hold');
    expect(eventWords('hold_cleared')).toBe('Hold cleared');
    expect(eventWords('returned_to_vendor')).toBe('Returned to its vendor');
    expect(eventWords('production_started')).toBe('Handed to a production worker');
    expect(eventWords('graded')).toBe('Tested, wiped and graded');
    expect(eventWords('failed_qc')).toBe('Failed quality control');
    expect(eventWords('consolidated')).toBe('Put into an inventory box');
    expect(eventWords('corrected')).toBe('Attributes corrected');
    expect(eventWords('moved_between_boxes')).toBe('Moved to another inventory box');
    expect(eventWords('label_printed')).toBe('Label printed');
  });

  it("writes an event's details as named lines, codes as words and free text as written", () => {
    expect(
      eventDetails({
        type: 'received',
        data: {
          result: 'model_mismatch',
          invoice_no: 'INV_7',
          evidence: 'GSMA check_42 clean',
          reference: null,
          station_note: '',
        },
      }),
    ).toEqual(['Scan result: model mismatch', 'Invoice: INV_7', 'Evidence: GSMA check_42 clean']);
    expect(eventDetails({ type: 'received', data: null })).toEqual([]);
  });

  it("says a hold's reason in words, and another step's reason as its own", () => {
    expect(eventDetails({ type: 'held', data: { reason: 'frp' } })).toEqual([
      'Hold reason: FRP lock',
    ]);
    expect(eventDetails({ type: 'held', data: { reason: 'activation_lock' } })).toEqual([
      'Hold reason: activation lock',
    ]);
    expect(eventDetails({ type: 'regrade_requested', data: { reason: 'Scratch missed' } })).toEqual(
      ['Reason: Scratch missed'],
    );
  });

  it("lists production's details: the worker by name, the issue codes, a correction's changes", () => {
    expect(
      eventDetails({ type: 'production_started', data: { worker_id: 7, worker: 'Ana Diaz' } }),
    ).toEqual(['Worker: Ana Diaz']);
    expect(
      eventDetails({ type: 'failed_qc', data: { issue_codes: ['LCD-CRACK', 'NO-POWER'] } }),
    ).toEqual(['Issue codes: LCD-CRACK, NO-POWER']);
    expect(eventDetails({ type: 'graded', data: { grade: 'B', issue_codes: [] } })).toEqual([
      'Grade: B',
    ]);
    expect(
      eventDetails({
        type: 'corrected',
        data: {
          before: { grade: 'A', capacity_gb: null },
          after: { grade: 'B', capacity_gb: 128 },
          reason: 'Scratch on the back',
        },
      }),
    ).toEqual(['Grade: A → B', 'Capacity (GB): — → 128', 'Reason: Scratch on the back']);
  });

  it('takes the station from its column, or from the details of an older event', () => {
    expect(eventStation({ station: 'bench-2', data: { station: 'old' } })).toBe('bench-2');
    expect(eventStation({ station: null, data: { station: 'cons-1' } })).toBe('cons-1');
    expect(eventStation({ station: null, data: null })).toBeNull();
    expect(
      eventDetails({ type: 'consolidated', data: { station: 'cons-1', box: 'IB-000001' } }),
    ).toEqual(['Box: IB-000001']);
    // The box the line says the device is in is not said twice.
    expect(
      eventDetails({ type: 'consolidated', container: 'IB-000001', data: { box: 'IB-000001' } }),
    ).toEqual([]);
    expect(
      eventDetails({
        type: 'moved_between_boxes',
        container: 'IB-000002',
        data: { box: 'IB-000002', from_box: 'IB-000001' },
      }),
    ).toEqual(['From box: IB-000001']);
  });

  it('says wipe methods in words', () => {
    expect(wipeMethodWords('nist_800_88')).toBe('NIST 800-88');
    expect(wipeMethodWords('factory_reset')).toBe('factory reset');
  });
});
