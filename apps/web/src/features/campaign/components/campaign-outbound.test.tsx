import type { Campaign } from '@inventory/contract';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, render, screen } from '@testing-library/react';
import { MemoryRouter } from 'react-router';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { CampaignOutbound } from './campaign-outbound';

let client: QueryClient;

const campaign = {
  id: 5,
  name: 'Spring Lifeline',
  client_carrier: 'SurgePhone',
  status: 'open',
  progress: {
    orders: 5,
    units: 5,
    total_cents: 0,
    waiting: 1,
    on_hold: 0,
    picked: 3,
    labeled: 2,
    scanned: 1,
    cancelled: 1,
  },
} as Campaign;

beforeEach(() => {
  vi.stubGlobal('fetch', (url: string) =>
    Promise.resolve(
      url.endsWith('/campaigns/outbound')
        ? Response.json({ code: 200, message: 'OK', data: [campaign] })
        : Response.json({ code: 404, message: 'Not found' }, { status: 404 }),
    ),
  );
});
afterEach(() => {
  cleanup();
  client.clear();
  vi.unstubAllGlobals();
});

function show(address: string, step: 'labeled' | 'scanned' = 'labeled') {
  client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={client}>
      <MemoryRouter initialEntries={[address]}>
        <CampaignOutbound step={step}>
          {(chosen) => <p data-testid="scoped">desk of {chosen.name}</p>}
        </CampaignOutbound>
      </MemoryRouter>
    </QueryClientProvider>,
  );
}

describe("a campaign's outbound page", () => {
  it('shows the chosen campaign’s step over the orders still to ship, and its desk', async () => {
    show('/order/express-orders/print-label?campaign=5');
    expect(await screen.findByText('Labelled: 2 of 4 orders')).toBeTruthy();
    expect(screen.getByTestId('campaign-progress').textContent).toContain('50%');
    expect(screen.getByLabelText('Scanned out: 1 of 4')).toBeTruthy();
    expect(screen.getByTestId('scoped').textContent).toBe('desk of Spring Lifeline');
  });

  it('counts the scan-out on the scan page', async () => {
    show('/order/express-orders/scan?campaign=5', 'scanned');
    expect(await screen.findByText('Scanned out: 1 of 4 orders')).toBeTruthy();
    expect(screen.getByTestId('campaign-progress').textContent).toContain('25%');
  });

  it('shows no desk until a campaign is chosen, and says so of one with nothing to ship', async () => {
    show('/order/express-orders/print-label');
    expect(await screen.findByText('Choose a campaign')).toBeTruthy();
    expect(screen.queryByTestId('scoped')).toBeNull();
    cleanup();
    show('/order/express-orders/print-label?campaign=9');
    expect(
      await screen.findByText('Campaign 9 has no orders left to ship: choose another.'),
    ).toBeTruthy();
    expect(screen.queryByTestId('scoped')).toBeNull();
  });
});
