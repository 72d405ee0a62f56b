import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';

/** A background job's states, as its queue keeps them (pg-boss). */
export const JOB_STATES = [
  'created',
  'retry',
  'active',
  'completed',
  'cancelled',
  'failed',
] as const;
export type JobState = (typeof JOB_STATES)[number];

/** The states a person may act on: retry a failed job, cancel one that has not run yet. */
export const JOB_RETRYABLE_STATES: readonly JobState[] = ['failed'];
export const JOB_CANCELLABLE_STATES: readonly JobState[] = ['created', 'retry'];

/** How many jobs a page of the jobs list shows. */
export const JOB_PAGE_SIZE = 50;

export const jobSchema = z.object({
  id: z.string(),
  name: z.string(),
  state: z.enum(JOB_STATES),
  /** Runs so far: the first and each retry. */
  attempts: z.int(),
  /** Runs allowed: the first and its retries. */
  max_attempts: z.int(),
  data: z.unknown(),
  created_at: z.string(),
  /** When it may run (next): a retry's back-off moves it. */
  start_after: z.string(),
  started_at: z.nullable(z.string()),
  finished_at: z.nullable(z.string()),
  /** The last run's error message; null when none failed or the last one succeeded. */
  last_error: z.nullable(z.string()),
});
export type Job = z.infer<typeof jobSchema>;

const VIEW = { permission: 'job.view-list' } as const;
const MANAGE = { permission: 'job.manage' } as const;

const jobIdParams = z.object({
  id: z.uuid({ error: 'Give a job id.' }),
});

export const jobsQuerySchema = z.object({
  state: z.optional(z.enum(JOB_STATES, { error: `Give one of ${JOB_STATES.join(', ')}.` })),
  name: z.optional(z.string().check(z.trim(), z.maxLength(100))),
  /** The page after this one: the `next` of the page before. */
  after: z.optional(z.string().check(z.maxLength(200))),
});
export type JobsQuery = z.infer<typeof jobsQuerySchema>;

export const jobsPageSchema = z.object({
  items: z.array(jobSchema),
  /** The next (older) page's `after`; null on the last page. */
  next: z.nullable(z.string()),
  /** The jobs defined in the app, for the name filter. */
  names: z.array(z.string()),
  /** How many jobs are in each state now, whatever the filters. */
  counts: z.record(z.enum(JOB_STATES), z.int()),
});
export type JobsPage = z.infer<typeof jobsPageSchema>;

/**
 * The background jobs (label batches, carrier calls, tracking polls, sweeps), newest first, by
 * state and name; completed jobs stay a day, failed ones a week.
 */
export const listJobsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/jobs',
  summary: 'Background jobs, newest first, with their state, attempts, timings and last error',
  tag: 'Background jobs',
  guard: VIEW,
  query: jobsQuerySchema,
  response: jobsPageSchema,
});

export const retryJobEndpoint = defineEndpoint({
  method: 'POST',
  path: '/jobs/:id/retry',
  summary: 'Run a failed job once more',
  tag: 'Background jobs',
  guard: MANAGE,
  params: jobIdParams,
  response: jobSchema,
});

export const cancelJobEndpoint = defineEndpoint({
  method: 'POST',
  path: '/jobs/:id/cancel',
  summary: 'Cancel a job that has not run yet (waiting or waiting to retry)',
  tag: 'Background jobs',
  guard: MANAGE,
  params: jobIdParams,
  response: jobSchema,
});
