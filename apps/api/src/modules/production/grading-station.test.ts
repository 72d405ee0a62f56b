import type {
  DiagnosticDevice,
  ProductRequest,
  TestOutcome,
  WorkerScan,
} from '@inventory/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAdminTestApp, dataOf, type ApiClient } from '../../test/api-client.js';
import {
  ALL_PASS,
  seedProduction,
  stagedBox,
  type ProductionPlaces,
} from '../../test/production-fixtures.js';
import { bearer, bodyOf, login, type TestApp } from '../../test/test-app.js';

/** The grading station: a diagnostic tool's file for the checklist, photos for grades C and D. */

let t: TestApp;
let admin: ApiClient;
let places: ProductionPlaces;
let workerToken: string;
let otherToken: string;

beforeAll(async () => {
  ({ t, admin } = await createAdminTestApp());
  places = await seedProduction(t);
  workerToken = await login(t.app, 'worker1', 'worker1-password-1');
  otherToken = await login(t.app, 'worker2', 'worker2-password-1');
});
afterAll(() => t.close());

/** Devices handed to the first worker: their ids and IMEIs. */
async function inProduction(count: number) {
  const box = await stagedBox(t.db, places, count);
  const { request } = await dataOf<{ request: ProductRequest }>(
    admin.post('/product-requests', { model_id: places.catalogue.models.a15, qty: count }),
    201,
  );
  await dataOf(
    admin.post(`/product-requests/${request.id}/approval`, { warehouse_box_ids: [box.id] }),
  );
  const { device_ids } = await dataOf<{ device_ids: number[] }>(
    places.leader.post('/product-team/assignments', {
      warehouse_box_id: box.id,
      worker_id: places.workers[0]!.id,
    }),
    201,
  );
  return { ids: device_ids, imeis: box.imeis };
}

const sendFile = (url: string, fileName: string, content: Buffer | string, token = workerToken) =>
  t.app.inject({
    method: 'POST',
    url: `/api/v1${url}?fileName=${encodeURIComponent(fileName)}`,
    headers: { ...bearer(token), 'content-type': 'application/octet-stream' },
    payload: content,
  });
const uploadDiagnostics = (fileName: string, csv: string, token = workerToken) =>
  sendFile('/product-team/worker/diagnostics', fileName, csv, token);

const fileErrors = async (response: Awaited<ReturnType<typeof uploadDiagnostics>>) => {
  expect(response.statusCode, response.body).toBe(422);
  return (bodyOf(response).message as { file: string[] }).file;
};

const PNG = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13]);

describe('a diagnostic tool’s file', () => {
  it('keeps each device’s results until its scan and test take them', async () => {
    const { ids, imeis } = await inProduction(2);
    const csv = [
      'Serial,IMEI,Display,Touch,Speaker,Earpiece,Wi-Fi,Bluetooth,Battery %,Notes',
      `S1,${imeis[0]},PASS,Pass,ok,fail,passed,,87%,scratched`,
      `S2,${imeis[1]},pass,pass,pass,pass,pass,n/a,91,`,
    ].join('\n');
    const stored = await dataOf<{ stored: number; devices: DiagnosticDevice[] }>(
      uploadDiagnostics('bench-3.csv', csv),
      201,
    );
    expect(stored.stored).toBe(2);
    expect(stored.devices[0]).toMatchObject({
      device_id: ids[0],
      items: { screen: 'pass', touch: 'pass', audio: 'fail', wifi: 'pass' },
      battery_health: 87,
      file_name: 'bench-3.csv',
    });

    const worker = places.workers[0]!.client;
    const scan = await dataOf<WorkerScan>(
      worker.post('/product-team/worker/scans', { code: imeis[0] }),
    );
    expect(scan.diagnostics).toMatchObject({
      items: { screen: 'pass', touch: 'pass', audio: 'fail', wifi: 'pass' },
      battery_health: 87,
      file_name: 'bench-3.csv',
    });
    const failed = await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', {
        device_id: ids[0],
        outcome: 'fail',
        items: { ...ALL_PASS, audio: 'fail' },
        frp_lock: false,
        battery_health: 87,
        issue_codes: ['AUDIO-FAIL'],
        tool: 'diagnostic_file',
      }),
      201,
    );
    const [test] = await t.db.query<{ tool: string }>(
      'SELECT tool FROM device_tests WHERE id = $1',
      [failed.test_id],
    );
    expect(test!.tool).toBe('diagnostic_file');
    const [event] = await t.db.query<{ data: { diagnostic_file: string } }>(
      "SELECT data FROM device_events WHERE device_id = $1 AND type = 'failed_qc'",
      [ids[0]],
    );
    expect(event!.data.diagnostic_file).toBe('bench-3.csv');
    // Taken by the test: none wait for it any more.
    const [left] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_diagnostics WHERE device_id = $1',
      [ids[0]],
    );
    expect(left!.n).toBe(0);

    // A later file replaces a device's results; a test by hand takes them too.
    await dataOf(uploadDiagnostics('bench-3b.csv', `IMEI,Screen\n${imeis[1]},fail`), 201);
    const again = await dataOf<WorkerScan>(
      worker.post('/product-team/worker/scans', { code: imeis[1] }),
    );
    expect(again.diagnostics).toMatchObject({
      items: { screen: 'fail' },
      battery_health: null,
      file_name: 'bench-3b.csv',
    });
  });

  it('refuses the whole file, line by line, when a row is wrong (422)', async () => {
    const { imeis } = await inProduction(2);
    const idle = await stagedBox(t.db, places, 1);
    const errors = await fileErrors(
      await uploadDiagnostics(
        'bad.csv',
        [
          'IMEI,Screen,Battery health',
          `${imeis[0]},maybe,80`,
          `000000000000000,pass,80`,
          `${idle.imeis[0]},pass,80`,
          `${imeis[1]},pass,180`,
          `${imeis[0]},pass,80`,
          `,pass,80`,
        ].join('\n'),
      ),
    );
    expect(errors).toEqual([
      'Line 2, Screen: write pass or fail, not "maybe".',
      'Line 3: no device has the IMEI 000000000000000.',
      `Line 4: ${idle.imeis[0]} is received, not in production.`,
      'Line 5, battery health: write a percentage from 0 to 100.',
      `Line 6: ${imeis[0]} repeats line 2.`,
      'Line 7: the IMEI is empty.',
    ]);
    const [stored] = await t.db.query<{ n: number }>(
      'SELECT count(*)::int AS n FROM device_diagnostics d JOIN devices v ON v.id = d.device_id WHERE v.imei = ANY ($1::text[])',
      [imeis],
    );
    expect(stored!.n).toBe(0);
    expect(await fileErrors(await uploadDiagnostics('x.csv', 'Serial,Screen\nS1,pass'))).toEqual([
      'The file has no IMEI column: name it IMEI.',
    ]);
    expect(
      await fileErrors(await uploadDiagnostics('x.csv', `IMEI,Color\n${imeis[0]},Blue`)),
    ).toHaveLength(1);
    expect(await fileErrors(await uploadDiagnostics('x.pdf', 'IMEI\n1'))).toEqual([
      'Upload a .csv or .xlsx file.',
    ]);
    const manager = await t.app.inject({
      method: 'POST',
      url: '/api/v1/product-team/worker/diagnostics?fileName=x.csv',
      headers: {
        ...bearer(await login(t.app, 'manager', 'manager-password-1')),
        'content-type': 'application/octet-stream',
      },
      payload: 'IMEI,Screen\n1,pass',
    });
    expect(manager.statusCode).toBe(403);
  });

  it('says so when a test claims a file’s results that are not there (422)', async () => {
    const { ids } = await inProduction(1);
    expect(
      await places.workers[0]!.client.fieldErrors('POST', '/product-team/worker/tests', {
        device_id: ids[0],
        outcome: 'fail',
        items: ALL_PASS,
        frp_lock: false,
        battery_health: 70,
        issue_codes: ['NO-POWER'],
        tool: 'diagnostic_file',
      }),
    ).toEqual({
      tool: ['No diagnostic results wait for this device: fill the checklist by hand.'],
    });
  });
});

describe('photos for grades C and D', () => {
  const pass = (deviceId: number, grade: string) => ({
    device_id: deviceId,
    outcome: 'pass',
    items: ALL_PASS,
    frp_lock: false,
    battery_health: 85,
    wipe_method: 'factory_reset',
    wipe_certificate: `W-${deviceId}`,
    grade,
  });

  it('are needed before a C or D grade is saved, not for B', async () => {
    const { ids } = await inProduction(3);
    const worker = places.workers[0]!.client;
    expect(
      await worker.fieldErrors('POST', '/product-team/worker/tests', pass(ids[0]!, 'C')),
    ).toEqual({ photos: ['Attach a photo of the device before you grade it C.'] });
    expect(
      await worker.fieldErrors('POST', '/product-team/worker/tests', pass(ids[1]!, 'D')),
    ).toEqual({ photos: ['Attach a photo of the device before you grade it D.'] });

    // A PDF is no photo.
    const pdf = await sendFile(
      `/product-team/devices/${ids[0]}/attachments`,
      'report.pdf',
      Buffer.from('%PDF-1.4\n%%EOF\n'),
    );
    expect(pdf.statusCode, pdf.body).toBe(201);
    expect((await worker.post('/product-team/worker/tests', pass(ids[0]!, 'C'))).statusCode).toBe(
      422,
    );
    const photo = await sendFile(`/product-team/devices/${ids[0]}/attachments`, 'back.png', PNG);
    expect(photo.statusCode, photo.body).toBe(201);
    const graded = await dataOf<TestOutcome>(
      worker.post('/product-team/worker/tests', pass(ids[0]!, 'C')),
      201,
    );
    expect(graded.result).toBe('graded');
    expect(
      (
        await dataOf<TestOutcome>(
          worker.post('/product-team/worker/tests', pass(ids[2]!, 'B')),
          201,
        )
      ).result,
    ).toBe('graded');
    // The leader sees the photos of the device.
    const files = await dataOf<{ file_name: string }[]>(
      places.leader.get(`/product-team/devices/${ids[0]}/attachments`),
    );
    expect(files.map((file) => file.file_name)).toEqual(['report.pdf', 'back.png']);
    const [audit] = await t.db.query<{ action: string }>(
      "SELECT action FROM audit_events WHERE entity_type = 'device' AND entity_id = $1 AND action LIKE '%attachment%'",
      [String(ids[0])],
    );
    expect(audit!.action).toBe('device.attachment_added');
  });

  it('are out of reach of another worker and of a device not in production (404)', async () => {
    const { ids } = await inProduction(1);
    const other = await sendFile(
      `/product-team/devices/${ids[0]}/attachments`,
      'back.png',
      PNG,
      otherToken,
    );
    expect(other.statusCode).toBe(404);
    const idle = await stagedBox(t.db, places, 1);
    const [device] = await t.db.query<{ id: number }>('SELECT id FROM devices WHERE imei = $1', [
      idle.imeis[0],
    ]);
    expect(
      (await places.leader.get(`/product-team/devices/${device!.id}/attachments`)).statusCode,
    ).toBe(404);
    expect(
      (await places.manager.get(`/product-team/devices/${ids[0]}/attachments`)).statusCode,
    ).toBe(200);
  });
});
