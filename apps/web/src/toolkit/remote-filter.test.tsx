import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { Option } from './resource-page-config';
import { RemoteFilter } from './resource-page';

const showFilter = (load: (search: string, id?: number) => Promise<Option[]>, value: string) =>
  render(
    <QueryClientProvider client={new QueryClient()}>
      <RemoteFilter
        filter={{ key: 'vendor_id', label: 'Vendor', load }}
        value={value}
        onChange={() => {}}
      />
    </QueryClientProvider>,
  );

describe('RemoteFilter, its value set from a link', () => {
  it('shows the name of the option the picker gives for its id', async () => {
    const view = showFilter(
      async (_search, id) => (id === 7 ? [{ value: 7, label: 'Acme Recyclers' }] : []),
      '7',
    );
    expect(await view.findByText('Acme Recyclers')).toBeTruthy();
  });

  it('shows the bare id, never another name, when the load cannot look an id up', async () => {
    let asked = 0;
    const view = showFilter(async () => {
      asked += 1;
      return [{ value: 1, label: 'Black' }];
    }, '7');
    expect(await view.findByText('#7')).toBeTruthy();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(asked).toBe(1);
    expect(view.queryByText('Black')).toBeNull();
  });
});
