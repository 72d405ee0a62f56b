import {
  JOB_MANAGER_ACCESS,
  myWorkEndpoints as W,
  teamJobEndpoints as T,
  workJobEndpoints as J,
  type FileFormat,
} from '@inventory/contract';
import { registerList } from '../../toolkit/resource.js';
import type { AppModule } from '../module.js';
import { checkRange, myCounts, myJobs, workerSummaries, workerSummariesFile } from './jobs-work.js';
import {
  type BoxCounts,
  cancelJob,
  countScan,
  createJob,
  eligibleAssignees,
  finishMyJob,
  jobTemplates,
  noteMyJob,
  reassignJob,
  reopenJob,
  saveTemplate,
  startMyJob,
  verifyJob,
} from './jobs.service.js';
import { jobDetail, teamJobListStore, workJobListStore } from './jobs.store.js';

/**
 * Work jobs (DOMAIN.md 4.11): /report/job creates and cancels them, /report/work is the caller's
 * own jobs and work, /report/admin verifies, reassigns, reopens and sums hours and units. A count
 * job's boxes are counted by the inventory area's counts, given as `counts`.
 */
export const workJobsModule = (counts: BoxCounts): AppModule => ({
  name: 'work-jobs',
  register(context) {
    const { endpoint, db, replica, downloads } = context;
    registerList(context, workJobListStore);
    registerList(context, teamJobListStore);

    endpoint(J.create, ({ principal, meta, body }) =>
      db.transaction((tx) => createJob(tx, counts, { actor: principal, meta }, body)),
    );
    endpoint(J.detail, ({ params }) => jobDetail(db, params.id));
    endpoint(J.assignees, ({ query }) => eligibleAssignees(db, query.kind));
    endpoint(J.cancel, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        cancelJob(tx, counts, { actor: principal, meta }, params.id, body.reason ?? null),
      ),
    );
    endpoint(J.templates, () => jobTemplates(db));
    endpoint(J.saveTemplate, ({ principal, meta, params, body }) =>
      db.transaction((tx) => saveTemplate(tx, { actor: principal, meta }, params.id, body.name)),
    );

    endpoint(W.jobs, ({ principal }) => myJobs(db, principal.userId));
    endpoint(W.counts, ({ principal, query }) => myCounts(db, principal.userId, query));
    endpoint(W.start, ({ principal, meta, params }) =>
      db.transaction((tx) => startMyJob(tx, counts, { actor: principal, meta }, params.id)),
    );
    endpoint(W.finish, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        finishMyJob(tx, counts, { actor: principal, meta }, params.id, body.done_qty ?? null),
      ),
    );
    endpoint(W.note, ({ principal, meta, params, body }) =>
      db.transaction((tx) => noteMyJob(tx, { actor: principal, meta }, params.id, body.note)),
    );
    endpoint(W.countScan, ({ principal, meta, params, body }) =>
      db.transaction((tx) => countScan(tx, counts, { actor: principal, meta }, params.id, body)),
    );

    endpoint(T.detail, ({ params }) => jobDetail(db, params.id));
    endpoint(T.assignees, ({ query }) => eligibleAssignees(db, query.kind));
    endpoint(T.verify, ({ principal, meta, params }) =>
      db.transaction((tx) => verifyJob(tx, counts, { actor: principal, meta }, params.id)),
    );
    endpoint(T.reopen, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        reopenJob(tx, counts, { actor: principal, meta }, params.id, body.reason ?? null),
      ),
    );
    endpoint(T.reassign, ({ principal, meta, params, body }) =>
      db.transaction((tx) =>
        reassignJob(tx, { actor: principal, meta }, params.id, body.assignee_ids),
      ),
    );
    endpoint(T.summaries, ({ query }) => workerSummaries(replica, query));
    downloads.addProducer('work-hours-units', (request) =>
      workerSummariesFile(replica, {
        from: String(request.from),
        to: String(request.to),
        format: request.format as FileFormat,
      }),
    );
    endpoint(T.exportSummaries, ({ principal, body }) => {
      // A bad range is refused here (422), not when the link is followed.
      checkRange(body);
      return downloads.issue(principal, {
        producer: 'work-hours-units',
        access: JOB_MANAGER_ACCESS,
        ...body,
      });
    });
  },
});
