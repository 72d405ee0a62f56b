import {
  bulkCreateLocationsEndpoint,
  createLocationEndpoint,
  locationLabelsEndpoint,
  locationParentOptionsEndpoint,
  locationZoneOptionsEndpoint,
  recordLocationAuditEndpoint,
  setLocationsActiveEndpoint,
  updateLocationEndpoint,
} from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { locationLabels } from './location-labels.js';
import {
  bulkCreateLocations,
  createLocation,
  labelledLocations,
  locationListStore,
  PARENT_PICKER,
  recordLocationAudit,
  setLocationsActive,
  updateLocation,
  ZONE_PICKER,
} from './locations.service.js';

/**
 * Storage locations (DOMAIN.md 4.2): the tree of zones, aisles, racks, levels and bins, its
 * ranges, activation, audits and labels.
 */
export const locationsModule: AppModule = {
  name: 'locations',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, locationListStore);
    endpoint(createLocationEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => createLocation(tx, principal, meta, body)),
    );
    endpoint(updateLocationEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => updateLocation(tx, principal, meta, params.id, body)),
    );
    endpoint(bulkCreateLocationsEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => bulkCreateLocations(tx, principal, meta, body)),
    );
    endpoint(setLocationsActiveEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) => setLocationsActive(tx, principal, meta, body.ids, body.active)),
    );
    endpoint(recordLocationAuditEndpoint, ({ principal, body, meta }) =>
      db.transaction((tx) =>
        recordLocationAudit(tx, principal, meta, body.ids, body.next_audit_due ?? null),
      ),
    );
    registerPrintable(context, {
      endpoint: locationLabelsEndpoint,
      ask: async ({ body }) => ({
        ids: (await labelledLocations(db, body.ids)).map((location) => location.id),
      }),
      content: (request) => locationLabels(db, (request.ids as unknown[]).map(Number)),
    });
    endpoint(locationParentOptionsEndpoint, ({ query }) => pickerOptions(db, PARENT_PICKER, query));
    endpoint(locationZoneOptionsEndpoint, ({ query }) => pickerOptions(db, ZONE_PICKER, query));
  },
};
