import { SIM_DETECTION_ACCESS, simDetectionEndpoints } from '@inventory/contract';
import type { Db } from '../../db/db.js';
import { fieldError } from '../../http/errors.js';
import { pickerOptions } from '../../toolkit/pickers.js';
import type { AppModule } from '../module.js';
import { detectionAdapterFor } from './detection-adapters.js';
import {
  differencesFile,
  findMapping,
  listAnomalies,
  listRows,
  listRuns,
  resolveAnomaly,
  saveMapping,
} from './sim-detection.reads.js';
import {
  acceptUpload,
  createPull,
  createRerun,
  findRun,
  processRun,
  unfinishedRuns,
} from './sim-detection.service.js';

const CARRIER_PICKER = {
  from: 'vendors',
  id: 'id',
  label: 'name',
  where: `type = 'carrier-client' AND active AND ($1::text IS NULL OR name ILIKE $1)`,
  order: 'lower(name), id',
};

/**
 * The runs this server is loading or applying, one at a time per run, after the answer that
 * started them; when the server closes it lets the current batch or apply finish and stops.
 */
function detectionWorker(db: Db, log: (error: unknown, runId: number) => void) {
  const running = new Map<number, Promise<void>>();
  let closing = false;
  return {
    start(runId: number) {
      if (closing || running.has(runId)) return;
      const work = processRun(db, runId, { stopped: () => closing })
        .catch((error: unknown) => log(error, runId))
        .finally(() => running.delete(runId));
      running.set(runId, work);
    },
    async close() {
      closing = true;
      await Promise.all(running.values());
    },
  };
}

/**
 * SIM detection (DOMAIN.md 4.6 `/sim/detection`), guard `sim.detection_oss`. Uploads, re-runs and
 * pulls answer their new run at once; its rows load and apply in the background, and the page
 * polls the run. A server that starts picks up the runs a stop left unfinished.
 */
export const simDetectionModule: AppModule = {
  name: 'sim-detection',
  register({ app, db, endpoint, downloads, config }) {
    const worker = detectionWorker(db, (error, runId) =>
      app.log.error({ err: error, runId }, 'SIM detection run failed'),
    );
    const adapterFor = detectionAdapterFor(config.simCarrierExportsDir);

    endpoint(simDetectionEndpoints.runs, ({ query }) => listRuns(db, query));
    endpoint(simDetectionEndpoints.run, ({ params }) => findRun(db, params.id));
    endpoint(simDetectionEndpoints.rows, ({ params, query }) => listRows(db, params.id, query));
    endpoint(simDetectionEndpoints.upload, async ({ principal, query, request }) => {
      const content = request.body;
      if (!Buffer.isBuffer(content)) throw fieldError('file', 'Send the export file as the body.');
      const runId = await acceptUpload(db, principal, {
        carrierId: query.client_carrier_id,
        fileName: query.file_name,
        content,
      });
      worker.start(runId);
      return findRun(db, runId);
    });
    endpoint(simDetectionEndpoints.rerun, async ({ principal, params, meta }) => {
      const runId = await createRerun(db, principal, meta, params.id);
      worker.start(runId);
      return findRun(db, runId);
    });
    endpoint(simDetectionEndpoints.pull, async ({ principal, body, meta }) => {
      const runId = await createPull(db, principal, meta, body, adapterFor);
      worker.start(runId);
      return findRun(db, runId);
    });

    downloads.addProducer('sim-detection-differences', (request) =>
      differencesFile(db, request.runId as number, request.format as 'csv' | 'xlsx'),
    );
    endpoint(simDetectionEndpoints.exportDifferences, async ({ principal, params, body }) => {
      await findRun(db, params.id);
      return downloads.issue(principal, {
        producer: 'sim-detection-differences',
        access: SIM_DETECTION_ACCESS,
        format: body.format,
        runId: params.id,
      });
    });

    endpoint(simDetectionEndpoints.mapping, ({ params }) => findMapping(db, params.id));
    endpoint(simDetectionEndpoints.saveMapping, ({ principal, params, body, meta }) =>
      saveMapping(db, { actor: principal, meta }, params.id, body),
    );
    endpoint(simDetectionEndpoints.carrierOptions, ({ query }) =>
      pickerOptions(db, CARRIER_PICKER, query),
    );
    endpoint(simDetectionEndpoints.anomalies, ({ query }) => listAnomalies(db, query));
    endpoint(simDetectionEndpoints.resolveAnomaly, ({ principal, params, body, meta }) =>
      resolveAnomaly(db, { actor: principal, meta }, params.id, body.resolution),
    );

    app.addHook('onListen', async () => {
      for (const runId of await unfinishedRuns(db)) worker.start(runId);
    });
    app.addHook('preClose', () => worker.close());
  },
};
