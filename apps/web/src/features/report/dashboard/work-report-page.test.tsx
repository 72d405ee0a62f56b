import type { WorkLogRow, WorkReport } from '@inventory/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen, within } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { reportPages } from '../report.pages';
import WorkReportPage from './work-report-page';

// The chart is recharts' to draw (the browser journey sees it); here its place is enough.
vi.mock('./work-report-chart', () => ({ WorkPerDayChart: () => <div>chart</div> }));

/** The answers arrive after antd's first render, slow on a shared machine. */
const SLOW = { timeout: 10_000 };

let client: QueryClient;
let report: WorkReport;
const asked: string[] = [];

const counts = (given: Partial<WorkReport['totals']> = {}) =>
  ({
    receive_scan: 0,
    grade: 0,
    consolidate: 0,
    putaway: 0,
    pick: 0,
    label: 0,
    scan_ship: 0,
    unpack: 0,
    repair: 0,
    test: 0,
    sim_allocate: 0,
    count: 0,
    move: 0,
    ...given,
  }) as WorkReport['totals'];

const logs: { items: WorkLogRow[]; nextCursor: null; prevCursor: null } = {
  items: [
    {
      id: 1,
      at: '2026-11-03T15:00:00.000Z',
      business_day: '2026-11-03',
      user_id: 9,
      user_name: 'Dana Cruz',
      action: 'receive_scan',
      entity_type: 'device',
      entity_id: 70,
      entity: '356938035643809',
      qty: 1,
      duration_s: null,
      rework: false,
    },
  ],
  nextCursor: null,
  prevCursor: null,
};

const reportOf = (work: boolean): WorkReport => ({
  from: '2026-11-02',
  to: '2026-11-03',
  time_zone: 'America/Chicago',
  team: null,
  teams: [{ id: 4, name: 'Invoice Management' }],
  days: ['2026-11-03', '2026-11-02'].map((day) => ({
    team_id: null,
    team: 'Everyone',
    day,
    counts: counts(work && day === '2026-11-03' ? { receive_scan: 3 } : {}),
  })),
  totals: counts(work ? { receive_scan: 3 } : {}),
  workers: work
    ? [
        {
          user_id: 9,
          name: 'Dana Cruz',
          action: 'receive_scan',
          qty: 3,
          rework: 0,
          hours: 0.05,
          units_per_hour: 60,
        },
      ]
    : [],
  rework: work ? [{ action: 'receive_scan', qty: 3, rework: 0, rate: 0 }] : [],
  jobs: { open: work ? 2 : 0, overdue: work ? 1 : 0 },
});

beforeEach(() => {
  // The tables ask the screen's width, which jsdom does not know.
  vi.stubGlobal('matchMedia', () => ({
    matches: false,
    addEventListener: () => {},
    removeEventListener: () => {},
    addListener: () => {},
    removeListener: () => {},
  }));
  vi.stubGlobal(
    'ResizeObserver',
    class {
      observe() {}
      unobserve() {}
      disconnect() {}
    },
  );
  vi.stubGlobal('fetch', (url: string) => {
    asked.push(url);
    const path = new URL(url, 'http://app').pathname;
    const data = path.endsWith('/report/dashboard')
      ? report
      : path.endsWith('/report/work-logs')
        ? logs
        : path.endsWith('/report/work-logs/count')
          ? { total: 1, capped: false }
          : null;
    return Promise.resolve(
      data === null
        ? Response.json({ code: 404, message: 'Not found' }, { status: 404 })
        : Response.json({ code: 200, message: 'OK', data }),
    );
  });
});
afterEach(() => {
  cleanup();
  client.clear();
  asked.length = 0;
  vi.unstubAllGlobals();
});

function show(address: string) {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const entry = reportPages.find((page) => page.path === '/report/dashboard')!;
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[address]}>
        <WorkReportPage entry={entry} />
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

// The first render loads antd's table and picker: slow on a shared machine.
describe('the working report page', { timeout: 30_000 }, () => {
  it('links every count to the work behind it, keeping the report’s filters', async () => {
    report = reportOf(true);
    show('/report/dashboard?from=2026-11-02&to=2026-11-03');
    const workers = await screen.findByRole('table', { name: 'Units per hour per worker' }, SLOW);
    const link = within(workers).getByRole('link', { name: '3' });
    const opened = new URLSearchParams(link.getAttribute('href')!.split('?')[1]);
    expect(Object.fromEntries(opened)).toEqual({
      from: '2026-11-02',
      to: '2026-11-03',
      log_from: '2026-11-02',
      log_to: '2026-11-03',
      log_action: 'receive_scan',
      log_user_id: '9',
    });
    const days = screen.getByRole('table', { name: 'Work per team and day' });
    expect(within(days).getByRole('link', { name: '3' }).getAttribute('href')).toContain(
      'log_from=2026-11-03&log_to=2026-11-03&log_action=receive_scan',
    );
    expect(screen.queryByText('No work was counted in these days.')).toBeNull();
    expect(screen.getByTestId('figure-jobs-open').textContent).toContain('Open jobs2');
    expect(screen.getByTestId('figure-jobs-overdue').textContent).toContain('Overdue jobs1');
  });

  it('says what to do when no work was counted', async () => {
    report = reportOf(false);
    show('/report/dashboard');
    expect(
      await screen.findByText('No work was counted in these days.', undefined, SLOW),
    ).toBeTruthy();
    expect(screen.getByText('No one’s work was counted in these days.')).toBeTruthy();
  });

  it('opens the work named in the address, filtered as the count was', async () => {
    report = reportOf(true);
    show(
      '/report/dashboard?log_from=2026-11-03&log_to=2026-11-03&log_action=receive_scan&log_user_id=9',
    );
    expect(await screen.findByText('356938035643809', undefined, SLOW)).toBeTruthy();
    expect(screen.getByText('Received by Dana Cruz, 2026-11-03')).toBeTruthy();
    const list = asked.find((url) => new URL(url, 'http://app').pathname.endsWith('/work-logs'));
    expect(Object.fromEntries(new URL(list!, 'http://app').searchParams)).toMatchObject({
      from: '2026-11-03',
      to: '2026-11-03',
      action: 'receive_scan',
      user_id: '9',
    });
  });
});
