import {
  unpackEndpoints as unpack,
  type FileFormat,
  type UnpackStatisticsTable,
} from '@inventory/contract';
import type { AppModule } from '../module.js';
import { deactivationFile, decideReturnedSims, returnedSims } from './returned-sims.service.js';
import { checkedRange, unpackStatistics, unpackStatisticsFile } from './unpack-statistics.js';
import {
  addUnidentifiedParcel,
  findReturnedParcel,
  searchUnidentifiedParcels,
  unpackParcel,
} from './unpack.service.js';

/**
 * The unpack station, its unidentified parcels and statistics (DOMAIN.md 4.16), and the SIMs that
 * came back (4.10 /RMA/sim). Each write is one transaction with its audit entry.
 */
export const unpackModule: AppModule = {
  name: 'unpack',
  register(context) {
    const { endpoint, db, replica, downloads } = context;
    endpoint(unpack.parcel, ({ query }) => findReturnedParcel(db, query.code));
    endpoint(unpack.unpack, ({ principal, meta, params, body }) =>
      db.transaction((tx) => unpackParcel(tx, { actor: principal, meta }, params.id, body)),
    );
    endpoint(unpack.unidentified, ({ query }) => searchUnidentifiedParcels(db, query.q));
    endpoint(unpack.addUnidentified, ({ principal, meta, body }) =>
      db.transaction((tx) => addUnidentifiedParcel(tx, { actor: principal, meta }, body)),
    );

    endpoint(unpack.statistics, ({ query }) => unpackStatistics(replica, query));
    downloads.addProducer('unpack-statistics', (request) =>
      unpackStatisticsFile(replica, {
        from: request.from as string,
        to: request.to as string,
        table: request.table as UnpackStatisticsTable,
        format: request.format as FileFormat,
      }),
    );
    endpoint(unpack.statisticsExport, ({ principal, body }) => {
      // The range is checked now, so a bad one is a 422 here rather than a broken download.
      checkedRange(body);
      return downloads.issue(principal, {
        producer: 'unpack-statistics',
        access: unpack.statisticsExport.guard,
        ...body,
      });
    });

    endpoint(unpack.returnedSims, () => returnedSims(db));
    endpoint(unpack.decideSims, ({ principal, meta, body }) =>
      db.transaction((tx) => decideReturnedSims(tx, { actor: principal, meta }, body)),
    );
    downloads.addProducer('sims-to-deactivate', (request) =>
      deactivationFile(db, request.format as FileFormat),
    );
    endpoint(unpack.deactivationExport, ({ principal, body }) =>
      downloads.issue(principal, {
        producer: 'sims-to-deactivate',
        access: unpack.deactivationExport.guard,
        format: body.format,
      }),
    );
  },
};
