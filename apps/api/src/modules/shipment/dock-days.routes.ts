import { dockDayEndpoints } from '@inventory/contract';
import { registerPrintable } from '../../toolkit/documents/print.js';
import type { AppModule } from '../module.js';
import {
  closeDockDay,
  dockDay,
  dockDaySheet,
  printableDockDay,
  reopenDockDay,
} from './dock-days.js';

/**
 * The dock's end-of-day close (DOMAIN.md 4.14 /fulfill/scan-to-ship): today's figures, the close,
 * a manager's reopening, and the end-of-day report.
 */
export const dockDaysModule: AppModule = {
  name: 'dock-days',
  register(context) {
    const { endpoint, db } = context;
    endpoint(dockDayEndpoints.today, () => dockDay(db));
    endpoint(dockDayEndpoints.close, ({ principal, meta }) =>
      db.transaction((tx) => closeDockDay(tx, { principal, meta })),
    );
    endpoint(dockDayEndpoints.reopen, ({ principal, meta, body }) =>
      db.transaction((tx) => reopenDockDay(tx, { principal, meta }, body.reason)),
    );
    registerPrintable(context, {
      endpoint: dockDayEndpoints.print,
      ask: async ({ params }) => ({ day: await printableDockDay(db, params.day) }),
      content: (request) => dockDaySheet(db, String(request.day)),
    });
  },
};
