import {
  createPurchaseInvoiceSchema,
  type PurchaseInvoiceDetail,
  updatePurchaseInvoiceSchema,
} from '@inventory/contract';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { bodyOf, valuesOf } from './invoice-form-values';

describe('the invoice form', () => {
  it('sends dollars as cents and empty fields as null, as the contract takes them', () => {
    const body = bodyOf({
      vendor_id: 3,
      invoice_no: 'INV-7',
      invoice_date: '',
      currency: '',
      total: 1234.5,
      notes: '',
      lines: [{ model_id: 9, condition: 'used', qty: 2, unit_cost: 45.1 }],
    });
    expect(body).toEqual({
      vendor_id: 3,
      invoice_no: 'INV-7',
      invoice_date: null,
      currency: 'USD',
      total_cents: 123_450,
      notes: null,
      lines: [
        {
          model_id: 9,
          color_id: null,
          capacity_gb: null,
          condition: 'used',
          grade: null,
          qty: 2,
          unit_cost_cents: 4510,
        },
      ],
    });
    expect(z.safeParse(createPurchaseInvoiceSchema, body).success).toBe(true);
  });

  it('edits an invoice as it is, keeping each line by its id', () => {
    const detail = {
      invoice: {
        vendor_id: 3,
        invoice_no: 'INV-7',
        invoice_date: '2026-11-02',
        currency: 'EUR',
        total_cents: null,
        notes: null,
      },
      lines: [
        {
          id: 41,
          model_id: 9,
          color_id: 2,
          capacity_gb: 128,
          condition: 'new',
          grade: 'A',
          qty: 5,
          unit_cost_cents: 19_999,
        },
      ],
    } as unknown as PurchaseInvoiceDetail;
    const body = bodyOf(valuesOf(detail));
    expect(body).toMatchObject({ currency: 'EUR', total_cents: null, notes: null });
    expect(body.lines).toEqual([
      {
        id: 41,
        model_id: 9,
        color_id: 2,
        capacity_gb: 128,
        condition: 'new',
        grade: 'A',
        qty: 5,
        unit_cost_cents: 19_999,
      },
    ]);
    expect(z.safeParse(updatePurchaseInvoiceSchema, body).success).toBe(true);
  });
});
