import type { Job, JobsPage } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { apiClient, dataOf, type ApiClient } from '../../test/api-client.js';
import { createRole, createTestApp, createUser, login, type TestApp } from '../../test/test-app.js';
import { defineJob, enqueue, jobsOf, registerJobs } from '../../toolkit/jobs.js';
import type { AppModule } from '../module.js';

/** The jobs page's endpoints: jobs by state and name, retry a failed one, cancel a waiting one. */

const trackingPoll = defineJob({
  name: 'test.tracking-poll',
  schema: z.object({ tracking: z.string() }),
  retry: { limit: 0, delaySeconds: 0, backoff: false },
  async handler(data) {
    throw new Error(`Carrier has no parcel ${data.tracking}.`);
  },
});

const ageingAlert = defineJob({
  name: 'test.ageing-alert',
  schema: z.object({ order: z.int() }),
  retry: { limit: 2, delaySeconds: 30, backoff: true },
  async handler() {},
});

const testJobs: AppModule = {
  name: 'test-jobs',
  register: (context) => registerJobs(context, [trackingPoll, ageingAlert]),
};

let t: TestApp;
let admin: ApiClient;

beforeAll(async () => {
  t = await createTestApp({ modules: [testJobs] });
  await createUser(t.db, {
    userName: 'jobs-admin',
    password: 'jobs-admin-password-1',
    roles: ['admin'],
  });
  admin = apiClient(t, await login(t.app, 'jobs-admin', 'jobs-admin-password-1'));
});
afterAll(() => t.close());

const pageOf = (query = '') => dataOf<JobsPage>(admin.get(`/jobs${query}`));

describe('the background jobs page', () => {
  it('lists jobs with their state, attempts and last error, and retries a failed one', async () => {
    const id = (await enqueue(t.db, trackingPoll, { tracking: '1Z999' }))!;
    await jobsOf(t.app)!.start({ pollingIntervalSeconds: 0.5 });
    for (let wait = 0; wait < 200; wait += 1) {
      const { items } = await pageOf('?state=failed');
      if (items.some((job) => job.id === id)) break;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
    await jobsOf(t.app)!.stop();

    const failed = await pageOf('?state=failed&name=test.tracking-poll');
    expect(failed.items).toHaveLength(1);
    expect(failed.items[0]).toMatchObject({
      id,
      name: 'test.tracking-poll',
      state: 'failed',
      attempts: 1,
      max_attempts: 1,
      data: { tracking: '1Z999' },
      last_error: 'Carrier has no parcel 1Z999.',
    });
    expect(failed.items[0]!.started_at).not.toBeNull();
    expect(failed.items[0]!.finished_at).not.toBeNull();
    expect(failed.counts.failed).toBe(1);
    expect(failed.names).toEqual(
      expect.arrayContaining(['test.ageing-alert', 'test.tracking-poll']),
    );

    const retried = await dataOf<Job>(admin.post(`/jobs/${id}/retry`));
    expect(retried).toMatchObject({ state: 'retry', max_attempts: 2 });
    expect((await admin.post(`/jobs/${id}/retry`)).statusCode).toBe(409);
    const [audit] = await t.db.query<{ action: string }>(
      `SELECT action FROM audit_events WHERE entity_type = 'job' AND entity_id = $1`,
      [id],
    );
    expect(audit?.action).toBe('job.retried');
  });

  it('cancels a waiting job, never a finished one', async () => {
    const id = (await enqueue(t.db, ageingAlert, { order: 7 }))!;
    expect(await dataOf<Job>(admin.post(`/jobs/${id}/cancel`))).toMatchObject({
      state: 'cancelled',
      attempts: 0,
    });
    const refused = await admin.post(`/jobs/${id}/cancel`);
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toMatch(/not run yet.*cancelled/);
  });

  it('pages newest first by keyset', async () => {
    await t.db.transaction(async (tx) => {
      for (let order = 0; order < 60; order += 1) await enqueue(tx, ageingAlert, { order });
    });
    const first = await pageOf('?name=test.ageing-alert');
    expect(first.items).toHaveLength(50);
    expect(first.next).not.toBeNull();
    const second = await pageOf(`?name=test.ageing-alert&after=${first.next}`);
    expect(second.next).toBeNull();
    const ids = [...first.items, ...second.items].map((job) => job.id);
    expect(new Set(ids).size).toBe(61);
  });

  it('answers bad input with 422 and an unknown job with 404', async () => {
    expect((await admin.get('/jobs?state=lost')).statusCode).toBe(422);
    expect((await admin.get('/jobs?after=not-a-page')).statusCode).toBe(422);
    expect((await admin.post('/jobs/12/retry')).statusCode).toBe(422);
    const unknown = '00000000-0000-4000-8000-000000000000';
    expect((await admin.post(`/jobs/${unknown}/cancel`)).statusCode).toBe(404);
  });

  it('shows the jobs to job.view-list and lets only job.manage act', async () => {
    await createRole(t.db, 'Job watcher', ['job.view-list']);
    await createUser(t.db, {
      userName: 'watcher',
      password: 'watcher-password-1',
      roles: ['Job watcher'],
    });
    const watcher = apiClient(t, await login(t.app, 'watcher', 'watcher-password-1'));
    expect((await watcher.get('/jobs')).statusCode).toBe(200);
    const id = (await enqueue(t.db, ageingAlert, { order: 8 }))!;
    expect((await watcher.post(`/jobs/${id}/cancel`)).statusCode).toBe(403);
  });
});
