import { cleanup, render } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyLink, RowLink, useRecordHref } from './record-link';

function InvoiceKey({ id, number }: { id: number; number: string }) {
  const recordHref = useRecordHref();
  return (
    <KeyLink to={recordHref('invoice', id)} title={`Open purchase invoice ${number}`} replace>
      {number}
    </KeyLink>
  );
}

afterEach(cleanup);

const at = (address: string, element: ReactNode) =>
  render(<MemoryRouter initialEntries={[address]}>{element}</MemoryRouter>);

describe('a row key link', () => {
  it('is a link to the list where it is, with its record open, named by the key', () => {
    const view = at(
      '/shipment-management/invoice?search=INV&status=expected&cursor=abc',
      <InvoiceKey id={12} number="INV-1001" />,
    );
    const link = view.getByRole('link', { name: 'INV-1001' });
    const href = new URL(link.getAttribute('href')!, 'http://app');
    expect(href.pathname).toBe('/shipment-management/invoice');
    expect(Object.fromEntries(href.searchParams)).toEqual({
      search: 'INV',
      status: 'expected',
      cursor: 'abc',
      invoice: '12',
    });
    expect(link.getAttribute('title')).toBe('Open purchase invoice INV-1001');
  });

  it('keeps what else the address holds', () => {
    const view = at('/devices/scan?device=3', <InvoiceKey id={4} number="X" />);
    const href = new URL(view.getByRole('link').getAttribute('href')!, 'http://app');
    expect(href.searchParams.getAll('device')).toEqual(['3']);
    expect(href.searchParams.getAll('invoice')).toEqual(['4']);
  });
});

describe('another link on a row', () => {
  it('keeps its text as its name and says where it leads in its tooltip', () => {
    const view = at(
      '/',
      <RowLink to="/shipment-management/invoice?invoice=1" where="Invoice A-1 in purchase invoices">
        A-1
      </RowLink>,
    );
    const link = view.getByRole('link', { name: 'A-1' });
    expect(link.getAttribute('title')).toBe('Invoice A-1 in purchase invoices');
  });

  it('is named by where it leads when its text is figures', () => {
    const view = at(
      '/',
      <RowLink to="/invoice-imei?invoice_id=1" where="IMEIs of invoice A-1 in the register" named>
        3 / 2
      </RowLink>,
    );
    expect(view.getByRole('link', { name: 'IMEIs of invoice A-1 in the register' })).toBeTruthy();
  });
});
