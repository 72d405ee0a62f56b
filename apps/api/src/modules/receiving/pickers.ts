import type { PickerSql } from '../../toolkit/pickers.js';
import { MODEL_PICKER } from '../master-data/index.js';

/**
 * How a shipment `s` is named to staff, with its vendor `sv` and invoice `si` (aliases of their
 * own, so that a box's query can name its shipment without shadowing its own `v` and `i`): what
 * is written on the carrier's paperwork first.
 */
export const SHIPMENT_LABEL = `COALESCE(s.tracking, 'Shipment ' || s.id)
  || COALESCE(' (' || s.carrier || ')', '') || ', ' || sv.name
  || COALESCE(', invoice ' || si.invoice_no, '')`;

/**
 * The receiving pages' pickers (run by the toolkit's pickerOptions). Each page registers its own
 * endpoint under its own guard; the SQL is shared.
 */
const vendors = (where: string): PickerSql => ({
  from: 'vendors',
  id: 'id',
  label: 'name',
  where: `${where} AND ($1::text IS NULL OR name ILIKE $1)`,
  order: 'lower(name), id',
});

const invoices = (where: string): PickerSql => ({
  from: 'purchase_invoices i JOIN vendors v ON v.id = i.vendor_id',
  id: 'i.id',
  label: "i.invoice_no || ' (' || v.name || ')'",
  where: `${where} AND ($1::text IS NULL OR i.invoice_no ILIKE $1 OR v.name ILIKE $1)`,
  order: 'i.id DESC',
});

export const PICKERS = {
  activeVendors: vendors('active'),
  /** Inactive vendors too: what was bought from them is still filtered by them. */
  allVendors: vendors('true'),
  models: MODEL_PICKER,
  colors: {
    from: 'colors',
    id: 'id',
    label: 'name',
    where: `active AND ($1::text IS NULL OR name ILIKE $1 OR array_to_string(aliases, ' ') ILIKE $1)`,
    order: 'lower(name), id',
  },
  /** Invoices not closed yet, newest first, by number or vendor. */
  openInvoices: invoices("i.status <> 'closed'"),
  /** Every invoice, newest first (returns to vendor refer to closed ones too). */
  invoices: invoices('true'),
  /**
   * Shipments not received yet, newest first, by tracking number, carrier, vendor or invoice:
   * the one a carton came on, for its box.
   */
  openShipments: {
    from: `inbound_shipments s JOIN vendors sv ON sv.id = s.vendor_id
      LEFT JOIN purchase_invoices si ON si.id = s.invoice_id`,
    id: 's.id',
    label: SHIPMENT_LABEL,
    where: `s.status <> 'received' AND ($1::text IS NULL OR s.tracking ILIKE $1
      OR s.carrier ILIKE $1 OR sv.name ILIKE $1 OR si.invoice_no ILIKE $1)`,
    order: 's.id DESC',
  },
} satisfies Record<string, PickerSql>;
