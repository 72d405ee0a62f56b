import { afterAll, beforeAll, expect, it } from 'vitest';
import { createTestApp, createUser, type TestApp } from '../../test/test-app.js';
import { generateWorkJobs } from './generate-work-jobs.js';

/** The generated work jobs: every one given to a generated staff member, every state present. */

let t: TestApp;
beforeAll(async () => {
  t = await createTestApp();
  for (const n of [1, 2, 3]) {
    await createUser(t.db, {
      userName: `generated.${n}`,
      password: 'generated-password-1',
      roles: ['Consolidation Worker'],
    });
  }
});
afterAll(() => t.close());

it('makes the jobs asked, each assigned, in every state', async () => {
  await generateWorkJobs(t.db, { jobs: 400, anchor: new Date('2026-11-01') });
  const rows = await t.db.query<{ status: string; jobs: number; assigned: number }>(
    `SELECT j.status, count(*)::int AS jobs, count(a.user_id)::int AS assigned
     FROM work_jobs j LEFT JOIN work_job_assignees a ON a.job_id = j.id
     GROUP BY j.status ORDER BY j.status`,
  );
  expect(rows.map((row) => row.status)).toEqual([
    'assigned',
    'cancelled',
    'done',
    'in_progress',
    'verified',
  ]);
  expect(rows.reduce((sum, row) => sum + row.jobs, 0)).toBe(400);
  for (const row of rows) expect(row.assigned).toBe(row.jobs);
});
