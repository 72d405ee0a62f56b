import type { Device, DeviceProduction } from '@inventory/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DeviceProductionRecord } from './device-production';

vi.mock('../../../shell/use-can', () => ({ useCan: () => true }));

let client: QueryClient;
let answer: DeviceProduction;

beforeEach(() => {
  // The table asks the screen's width, which jsdom does not know.
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
  }));
  vi.stubGlobal('fetch', (url: string) =>
    Promise.resolve(
      url.endsWith('/devices/7/production')
        ? Response.json({ code: 200, message: 'OK', data: answer })
        : Response.json({ code: 404, message: 'Not found' }, { status: 404 }),
    ),
  );
});
afterEach(() => {
  cleanup();
  client.clear();
  vi.unstubAllGlobals();
});

const device = {
  id: 7,
  identifier: '350000000000007',
  grade: 'F',
  hold_reason: 'frp',
} as Device;

const ALL_PASS = Object.fromEntries(
  [
    'screen',
    'touch',
    'audio',
    'mic',
    'cameras',
    'buttons',
    'port',
    'wifi',
    'bluetooth',
    'sensors',
  ].map((item) => [item, 'pass' as const]),
);

function show(shown: Device = device) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter>
        <DeviceProductionRecord device={shown} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("a device's production record", () => {
  it('shows the grade with its meaning, the wipe, the lock, the battery, the failure and each test', async () => {
    answer = {
      request: { id: 3, number: 'PR-000003', status: 'in_progress' },
      worker: 'Ana Diaz',
      assigned_at: '2026-11-20T09:00:00.000Z',
      graded_at: null,
      graded_by: null,
      wipe: {
        method: 'nist_800_88',
        certificate: 'CERT-9',
        wiped_at: '2026-11-20T10:00:00.000Z',
      },
      lock_on: true,
      battery_health: 72,
      tests: [
        {
          id: 2,
          run_at: '2026-11-21T10:00:00.000Z',
          tester: 'Ana Diaz',
          tool: 'manual',
          result: 'hold',
          items: ALL_PASS,
          battery_health: 72,
          grade: null,
          issue_codes: [],
          cosmetic_notes: null,
        },
        {
          id: 1,
          run_at: '2026-11-20T10:00:00.000Z',
          tester: 'Ana Diaz',
          tool: 'diagnostics',
          result: 'fail',
          items: { ...ALL_PASS, touch: 'fail' },
          battery_health: 70,
          grade: 'F',
          issue_codes: ['TOUCH-FAIL'],
          cosmetic_notes: 'Scuffed frame',
        },
      ],
    };
    show();
    const record = await screen.findByTestId('device-production');
    expect(record.textContent).toContain('A function fails: not for sale as it is.');
    expect(record.textContent).toContain('NIST 800-88');
    expect(record.textContent).toContain('Certificate CERT-9');
    expect(record.textContent).toContain('on hold: FRP lock');
    expect(record.textContent).toContain('72%');
    expect(record.textContent).toContain('TOUCH-FAIL');
    expect(within(record).getByRole('link', { name: 'PR-000003' }).getAttribute('href')).toBe(
      '/invoice/product-request',
    );
    const [held, failed, ...more] = within(
      screen.getByRole('table', { name: `Tests of ${device.identifier}` }),
    )
      .getAllByRole('row')
      .slice(1);
    expect(more).toEqual([]);
    expect(held!.textContent).toContain('stopped: on hold');
    expect(failed!.textContent).toContain('failed');
    expect(failed!.textContent).toContain('Ana Diaz (diagnostics)');
    expect(failed!.textContent).toContain('Scuffed frame');
    // The failed item comes first in its checklist.
    const checklist = within(failed!).getAllByText(/^[a-z]+ (passed|failed)$/);
    expect(checklist.map((item) => item.textContent)).toEqual([
      'touch failed',
      ...[
        'screen',
        'audio',
        'mic',
        'cameras',
        'buttons',
        'port',
        'wifi',
        'bluetooth',
        'sensors',
      ].map((item) => `${item} passed`),
    ]);
  });

  it('says a device never handed out is not through production yet', async () => {
    answer = {
      request: null,
      worker: null,
      assigned_at: null,
      graded_at: null,
      graded_by: null,
      wipe: null,
      lock_on: null,
      battery_health: null,
      tests: [],
    };
    show({ ...device, grade: null, hold_reason: null });
    expect((await screen.findByTestId('device-production')).textContent).toContain(
      'Not through production yet.',
    );
  });
});
