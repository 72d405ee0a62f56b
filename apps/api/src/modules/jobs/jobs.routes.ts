import { cancelJobEndpoint, listJobsEndpoint, retryJobEndpoint } from '@inventory/contract';
import { Answer } from '../../http/endpoint.js';
import type { AppModule } from '../module.js';
import { actOnJob, listJobs } from './jobs.service.js';

/**
 * The background jobs page's endpoints (`/users/jobs`): the jobs with their state, retry a failed
 * one, cancel a waiting one. The jobs themselves are defined by their areas (`toolkit/jobs.ts`).
 */
export const jobsModule: AppModule = {
  name: 'jobs',
  register({ endpoint, db }) {
    endpoint(listJobsEndpoint, ({ query }) => listJobs(db, query));
    endpoint(retryJobEndpoint, async ({ principal, params, meta }) => {
      const job = await db.transaction((tx) =>
        actOnJob(tx, { actor: principal, meta }, params.id, 'retry'),
      );
      return new Answer(job, 'The job will run again.');
    });
    endpoint(cancelJobEndpoint, async ({ principal, params, meta }) => {
      const job = await db.transaction((tx) =>
        actOnJob(tx, { actor: principal, meta }, params.id, 'cancel'),
      );
      return new Answer(job, 'The job is cancelled.');
    });
  },
};
