import {
  deviceRepairEndpoint,
  repairEndpoints as E,
  STATION_ACCESS,
  type FileFormat,
  type RepairStatisticsTable,
} from '@inventory/contract';
import { registerAttachments } from '../../toolkit/attachments.js';
import { acceptFileBodies } from '../../toolkit/files.js';
import type { Transaction } from '../../db/db.js';
import type { Principal, RequestMeta } from '../../http/principal.js';
import type { StockWriter } from '../stock/index.js';
import type { AppModule } from '../module.js';
import { repairPhotoStore } from './repair-photos.js';
import {
  deviceRepairHistory,
  deviceRepairTickets,
  leaderBoard,
  partLocations,
  recentTickets,
  requestableParts,
  sortingQueue,
  testingQueue,
  ticketDetail,
  workerQueue,
} from './repair-reads.js';
import { checkRange, repairStatistics, repairStatisticsFile } from './repair-statistics.js';
import {
  assignTicket,
  cancelTicket,
  completeRepair,
  declareBeyondRepair,
  issuePart,
  raiseRepairRequest,
  recordRepairTest,
  requestPart,
  runClock,
  setWaiting,
  sortTicket,
  writeNote,
} from './repair-stations.js';

type Acted<I> = {
  readonly principal: Principal;
  readonly meta: RequestMeta;
  readonly params: { readonly id: number };
  readonly body: I;
};

/** The repair line (issue 19): requests, sorting, the leader, technicians, testing, statistics. */
export const repairModule: AppModule = {
  name: 'repair',
  register(context) {
    const { endpoint, db, replica, app, downloads } = context;
    endpoint(E.request, ({ principal, meta, body }) =>
      db.transaction((tx) => raiseRepairRequest(tx, { actor: principal, meta }, body)),
    );
    endpoint(E.recent, () => recentTickets(db));
    endpoint(E.detail, ({ params }) => ticketDetail(db, params.id));
    endpoint(E.history, ({ query }) => deviceRepairHistory(db, query.code));
    endpoint(E.sortingQueue, () => sortingQueue(db));
    endpoint(E.leaderBoard, () => leaderBoard(db));
    endpoint(E.workerQueue, ({ principal }) => workerQueue(db, principal.userId));
    endpoint(E.partLocations, () => partLocations(db));
    endpoint(E.parts, () => requestableParts(db));
    endpoint(E.testingQueue, () => testingQueue(db));
    endpoint(deviceRepairEndpoint, ({ params }) => deviceRepairTickets(db, params.id));
    endpoint(E.statistics, ({ query }) => repairStatistics(replica, query));
    downloads.addProducer('repair-statistics', (request) =>
      repairStatisticsFile(replica, {
        from: String(request.from),
        to: String(request.to),
        table: request.table as RepairStatisticsTable,
        format: request.format as FileFormat,
      }),
    );
    endpoint(E.statisticsExport, ({ principal, body }) => {
      // A bad range is refused here (422), not when the link is followed.
      checkRange(body);
      return downloads.issue(principal, {
        producer: 'repair-statistics',
        access: STATION_ACCESS.repairStatistics,
        ...body,
      });
    });

    /** A ticket's step in one transaction, answered with the ticket as it is after it. */
    const act =
      <I>(
        write: (tx: Transaction, writer: StockWriter, id: number, input: I) => Promise<unknown>,
      ) =>
      async ({ principal, meta, params, body }: Acted<I>) => {
        await db.transaction((tx) => write(tx, { actor: principal, meta }, params.id, body));
        return ticketDetail(db, params.id);
      };
    endpoint(E.sort, act(sortTicket));
    endpoint(E.assign, act(assignTicket));
    endpoint(E.beyondRepair, act(declareBeyondRepair));
    endpoint(E.requestParts, act(requestPart));
    endpoint(
      E.cancel,
      act((tx, writer, id, body: { reason?: string | null }) =>
        cancelTicket(tx, writer, id, body.reason),
      ),
    );
    endpoint(
      E.clock,
      act((tx, writer, id, body: { running: boolean }) => runClock(tx, writer, id, body.running)),
    );
    endpoint(E.issuePart, act(issuePart));
    endpoint(
      E.waiting,
      act((tx, writer, id, body: { waiting: boolean }) => setWaiting(tx, writer, id, body.waiting)),
    );
    endpoint(
      E.note,
      act((tx, writer, id, body: { note: string }) => writeNote(tx, writer, id, body.note)),
    );
    endpoint(
      E.complete,
      act((tx, writer, id) => completeRepair(tx, writer, id)),
    );
    endpoint(E.test, act(recordRepairTest));
    acceptFileBodies(app);
    registerAttachments(context, repairPhotoStore);
  },
};
