import {
  blacklistEndpoints,
  clearBlacklistEntryEndpoint,
  deviceCardEndpoint,
  deviceLabelEndpoint,
  deviceLookupEndpoint,
  deviceProductionEndpoint,
  type Device,
} from '@inventory/contract';
import { JsonAnswer } from '../../http/endpoint.js';
import { NotFoundError } from '../../http/errors.js';
import { registerPrintable } from '../../toolkit/documents/print.js';
import { registerImports } from '../../toolkit/imports.js';
import { registerList } from '../../toolkit/resource.js';
import { auditActor, recordAudit } from '../audit/index.js';
import type { AppModule } from '../module.js';
import { deviceProductionRecord } from '../production/index.js';
import {
  blacklistImportStore,
  blacklistStore,
  clearBlacklistEntry,
  createBlacklistEntry,
} from './blacklist.service.js';
import { lookUpDevice } from './device-lookup.js';
import { deviceCard, deviceCardJson, deviceStore } from './devices.store.js';

/** The lines under a device label's barcode: what a picker checks at a glance. */
const deviceLabelLines = (device: Device) => [
  [device.color, device.capacity_gb ? `${device.capacity_gb} GB` : null, device.grade]
    .filter(Boolean)
    .join(' / '),
  device.imei2 ? `IMEI2 ${device.imei2}` : (device.serial ?? ''),
];

/**
 * The device registry (/devices/scan: the lookup, the card and what production recorded of a
 * device) and the blacklist (/devices/blacklist).
 */
export const devicesModule: AppModule = {
  name: 'devices',
  register(context) {
    const { endpoint, db } = context;
    registerList(context, deviceStore);

    endpoint(deviceLookupEndpoint, ({ query }) => lookUpDevice(db, query.code));
    endpoint(deviceCardEndpoint, async ({ params }) => {
      const found = await deviceCardJson(db, 'd.id = $1', [params.id]);
      if (!found) throw new NotFoundError(`There is no device with id ${params.id}.`);
      return new JsonAnswer(found.card);
    });
    endpoint(deviceProductionEndpoint, async ({ params }) => {
      const record = await deviceProductionRecord(db, params.id);
      if (!record) throw new NotFoundError(`There is no device with id ${params.id}.`);
      return record;
    });

    registerPrintable(context, {
      endpoint: deviceLabelEndpoint,
      ask: async ({ principal, params, body, meta }) => {
        const [device] = await db.query<{ identifier: string }>(
          'SELECT identifier FROM devices WHERE id = $1',
          [params.id],
        );
        if (!device) throw new NotFoundError(`There is no device with id ${params.id}.`);
        // Every print is on record: reprints are counted from the audit log.
        await recordAudit(db, {
          ...auditActor(principal, meta),
          action: 'device.label_printed',
          entityType: 'device',
          entityId: params.id,
          after: { identifier: device.identifier, format: body.format, copies: body.copies },
        });
        return { deviceId: params.id };
      },
      content: async (request) => {
        const card = await deviceCard(db, Number(request.deviceId));
        if (!card) throw new NotFoundError('The device of this label is gone.');
        const { device } = card;
        return {
          fileName: `label-${device.identifier}`,
          labels: [
            { barcode: device.identifier, title: device.model, lines: deviceLabelLines(device) },
          ],
        };
      },
    });

    registerList(context, blacklistStore);
    registerImports(context, blacklistImportStore);
    endpoint(blacklistEndpoints.create, ({ principal, body, meta }) =>
      db.transaction((tx) => createBlacklistEntry(tx, principal, meta, body)),
    );
    endpoint(clearBlacklistEntryEndpoint, ({ principal, params, body, meta }) =>
      db.transaction((tx) => clearBlacklistEntry(tx, principal, meta, params.id, body.evidence)),
    );
  },
};
