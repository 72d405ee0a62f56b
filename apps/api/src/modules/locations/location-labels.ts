import type { Queryable } from '../../db/db.js';
import type { LabelContent } from '../../toolkit/documents/print.js';
import { labelledLocations } from './locations.service.js';

/**
 * Location labels (2x1): the code as a Code128 barcode and in bold, and below it what the
 * location is, so a person reads the shelf as the scanner does.
 */
export async function locationLabels(db: Queryable, ids: readonly number[]): Promise<LabelContent> {
  const locations = await labelledLocations(db, ids);
  return {
    fileName:
      locations.length === 1 ? `location-${locations[0]!.code}` : `locations-${locations.length}`,
    labels: locations.map((location) => ({
      barcode: location.code,
      title: location.code,
      lines: [
        [location.kind, location.name].filter(Boolean).join(': '),
        location.quarantine
          ? `QUARANTINE zone ${location.zone_code}`
          : `Zone ${location.zone_code}`,
      ],
    })),
  };
}
