import type { PurchaseInvoiceDetail } from '@inventory/contract';
import { centsOf } from '../../toolkit/format';

/** The invoice form's values: money in dollars as typed, dates as the date input writes them. */

export type LineValues = {
  id?: number;
  model_id?: number;
  color_id?: number | null;
  capacity_gb?: number | null;
  condition?: string;
  grade?: string | null;
  qty?: number;
  /** In dollars on the form, in cents for the API. */
  unit_cost?: number | null;
};

export type InvoiceValues = {
  vendor_id?: number;
  invoice_no?: string;
  invoice_date?: string;
  currency?: string;
  total?: number | null;
  notes?: string;
  lines?: LineValues[];
};

export const NEW_LINE: LineValues = { condition: 'used', qty: 1 };

export const valuesOf = (detail: PurchaseInvoiceDetail): InvoiceValues => ({
  vendor_id: detail.invoice.vendor_id,
  invoice_no: detail.invoice.invoice_no,
  invoice_date: detail.invoice.invoice_date ?? '',
  currency: detail.invoice.currency,
  total: detail.invoice.total_cents === null ? null : detail.invoice.total_cents / 100,
  notes: detail.invoice.notes ?? '',
  lines: detail.lines.map((line) => ({
    id: line.id,
    model_id: line.model_id,
    color_id: line.color_id,
    capacity_gb: line.capacity_gb,
    condition: line.condition,
    grade: line.grade,
    qty: line.qty,
    unit_cost: line.unit_cost_cents / 100,
  })),
});

export const bodyOf = (values: InvoiceValues) => ({
  vendor_id: values.vendor_id,
  invoice_no: values.invoice_no,
  invoice_date: values.invoice_date || null,
  currency: values.currency || 'USD',
  total_cents: values.total === null || values.total === undefined ? null : centsOf(values.total),
  notes: values.notes || null,
  lines: (values.lines ?? []).map(({ unit_cost, ...line }) => ({
    ...line,
    color_id: line.color_id ?? null,
    capacity_gb: line.capacity_gb ?? null,
    grade: line.grade ?? null,
    unit_cost_cents: centsOf(unit_cost ?? 0),
  })),
});
