import type { ClaimPackage } from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dataOf, signedInClient, type ApiClient } from '../../test/api-client.js';
import { shippedLifelineParcels } from '../../test/returned-parcel-fixtures.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * Two desks drafting a claim on one parcel at the same moment. On PostgreSQL
 * (TEST_DATABASE_URL) the requests meet on concurrent connections: the open-claim index makes the
 * second wait for the first and answer 409 naming it, so a parcel has one open claim.
 */

let t: TestApp;
let clerk: ApiClient;
let desks: [ApiClient, ApiClient];

beforeAll(async () => {
  t = await createTestApp();
  clerk = await signedInClient(t, 'claim-race-clerk', ['Shipping Clerk']);
  desks = [
    await signedInClient(t, 'claim-race-a', ['Customer Support']),
    await signedInClient(t, 'claim-race-b', ['Customer Support']),
  ];
});
afterAll(() => t.close());

describe('two desks claiming one parcel at once', () => {
  it('make one open claim; the other is told its number', async () => {
    const [parcel] = await shippedLifelineParcels(t, clerk, 1, false);
    await dataOf(clerk.post(`/parcel-shipments/${parcel!.packageId}/lost`, { reason: 'Gone' }));
    const values = await dataOf<ClaimPackage>(
      desks[0].get(`/claims/parcels?tracking_number=${parcel!.tracking}`),
    );
    const body = {
      package_id: values.package_id,
      type: 'lost',
      declared_cents: values.declared_cents,
      claimed_cents: Math.max(values.claimed_cents, 100),
    };
    const answers = await Promise.all(desks.map((desk) => desk.post('/claims', body)));
    expect(answers.map((answer) => answer.statusCode).sort()).toEqual([201, 409]);
    const [open] = await t.db.query<{ number: string }>(
      "SELECT number FROM claims WHERE package_id = $1 AND status <> 'closed'",
      [values.package_id],
    );
    const refused = answers.find((answer) => answer.statusCode === 409)!;
    expect((refused.json() as { message: string }).message).toContain(open!.number);
  });
});
