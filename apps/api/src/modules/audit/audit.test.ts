import type { AuditEvent } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiClient, createAdminTestApp, type ApiClient } from '../../test/api-client.js';
import { bodyOf, createUser, login, type TestApp } from '../../test/test-app.js';
import { recordAudit } from './audit.service.js';

/** The audit log: keyset pages newest first, a capped count, and its filters. */

let t: TestApp;
let admin: ApiClient;
type Page = { items: AuditEvent[]; nextCursor: string | null; prevCursor: string | null };

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  // Five events by actor 7001 on box 1, an hour apart, and one by actor 7002 on another box.
  await t.db.query(
    `INSERT INTO audit_events (at, actor_id, actor_name, action, entity_type, entity_id)
     SELECT '2026-03-01T12:00:00Z'::timestamptz - n * interval '1 hour', 7001, 'auditor',
       CASE WHEN n % 2 = 0 THEN 'warehouse_box.closed' ELSE 'warehouse_box.reopened' END,
       'warehouse_box', '1'
     FROM generate_series(0, 4) AS n`,
  );
  await recordAudit(t.db, {
    actorId: 7002,
    actorName: 'other',
    action: 'warehouse_box.closed',
    entityType: 'warehouse_box',
    entityId: 2,
  });
}, 60_000);
afterAll(() => t.close());

const page = async (query: string) => bodyOf<Page>(await admin.get(`/audit-events?${query}`)).data;

describe('the audit log', () => {
  it('pages newest first by cursor, there and back', async () => {
    const first = await page('actor_id=7001&limit=2');
    const second = await page(`actor_id=7001&limit=2&cursor=${first.nextCursor}`);
    const third = await page(`actor_id=7001&limit=2&cursor=${second.nextCursor}`);
    const times = [...first.items, ...second.items, ...third.items].map((event) => event.at);
    expect(times).toHaveLength(5);
    expect(times).toEqual([...times].sort().reverse());
    expect(third.nextCursor).toBeNull();
    const back = await page(`actor_id=7001&limit=2&cursor=${third.prevCursor}`);
    expect(back.items).toEqual(second.items);
  });

  it('filters by actor, entity, action and time range, and counts', async () => {
    const count = async (query: string) =>
      bodyOf<{ total: number; capped: boolean }>(await admin.get(`/audit-events/count?${query}`))
        .data;
    expect(await count('actor_id=7001')).toEqual({ total: 5, capped: false });
    expect((await count('entity_type=warehouse_box&entity_id=2')).total).toBe(1);
    expect((await count('actor_id=7001&action=warehouse_box.closed')).total).toBe(3);
    const [newest] = (await page('actor_id=7001&limit=1')).items;
    // `from` takes the newest event's time in, `to` leaves it out.
    expect((await count(`actor_id=7001&from=${newest!.at}`)).total).toBe(1);
    expect((await count(`actor_id=7001&to=${newest!.at}`)).total).toBe(4);
  });

  it('refuses a time that is no ISO time, and a reader without the permission', async () => {
    const refused = await admin.get('/audit-events?from=yesterday');
    expect(refused.statusCode).toBe(422);
    expect(bodyOf(refused).message).toHaveProperty('from');
    await createUser(t.db, { userName: 'no-audit', password: 'no-audit-password' });
    const reader = apiClient(t, await login(t.app, 'no-audit', 'no-audit-password'));
    expect((await reader.get('/audit-events')).statusCode).toBe(403);
  });
});
