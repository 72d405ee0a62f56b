import { createReadStream } from 'node:fs';
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { SimDetectionColumns } from '@inventory/contract';
import { detectionBatches, ExportRefusal, type DetectionRow } from './sim-detection-rows.js';

/**
 * How a detection run asks a client carrier about its lines (DOMAIN.md 4.6 "trigger API pull"):
 * an adapter per client carrier behind one interface. Built in: the batch-file adapter, which
 * reads the activation exports the carrier drops in a folder (the way issue 18's built-in
 * adapter trades batch files), so a pull works offline and in tests. A carrier with an API of its
 * own gets an adapter that calls it, chosen in `detectionAdapterFor`.
 */

/** What the carrier says of one ICCID. */
export type DetectionRecord = Pick<DetectionRow, 'state' | 'mdn' | 'activation_date' | 'imei_seen'>;

export interface DetectionAdapter {
  /** Named on the run (its file name column), so a run says where its rows came from. */
  readonly name: string;
  /** The carrier's record of each ICCID it knows among those asked. */
  lookUp(iccids: readonly string[]): Promise<Map<string, DetectionRecord>>;
}

/** The carrier cannot be asked (no export files, an export it cannot read); in words. */
export class AdapterUnavailable extends Error {}

/** The carrier of a pull and the mapping its exports are read with. */
export type AdapterCarrier = { readonly id: number; readonly name: string };

/**
 * Reads every `.csv` export in the carrier's folder (`<directory>/<carrier id>/`) in file-name
 * order, streamed, keeping the asked ICCIDs' records; a later file or line wins, as the newest
 * export is named last.
 */
export function batchFileAdapter(
  directory: string,
  carrier: AdapterCarrier,
  columns: SimDetectionColumns,
): DetectionAdapter {
  const folder = join(directory, String(carrier.id));
  return {
    name: `batch files of ${carrier.name}`,
    async lookUp(iccids) {
      const files = await readdir(folder).then(
        (names) => names.filter((name) => name.toLowerCase().endsWith('.csv')).sort(),
        () => [],
      );
      if (files.length === 0) {
        throw new AdapterUnavailable(
          `No activation exports of ${carrier.name} are in its batch-file folder yet.`,
        );
      }
      const asked = new Set(iccids);
      const found = new Map<string, DetectionRecord>();
      for (const file of files) {
        try {
          for await (const rows of detectionBatches(createReadStream(join(folder, file)), columns, {
            batchSize: 5_000,
          })) {
            for (const row of rows) {
              if (row.problem === null && asked.has(row.iccid)) {
                found.set(row.iccid, {
                  state: row.state,
                  mdn: row.mdn,
                  activation_date: row.activation_date,
                  imei_seen: row.imei_seen,
                });
              }
            }
          }
        } catch (error) {
          if (error instanceof ExportRefusal) {
            throw new AdapterUnavailable(`The export ${file}: ${error.message}`);
          }
          throw error;
        }
      }
      return found;
    },
  };
}

/** The adapter a client carrier is asked through: the batch-file one for every carrier today. */
export const detectionAdapterFor =
  (exportsDirectory: string) =>
  (carrier: AdapterCarrier, columns: SimDetectionColumns): DetectionAdapter =>
    batchFileAdapter(exportsDirectory, carrier, columns);
