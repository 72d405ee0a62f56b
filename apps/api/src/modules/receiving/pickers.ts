import { PICKER_LIMIT, type PickerOption } from '@inventory/contract';
import type { Queryable } from '../../db/db.js';
import { containsPattern } from '../../http/sql.js';
import { MODEL_DISPLAY_NAME } from '../master-data/index.js';

/**
 * How a shipment `s` is named to staff, with its vendor `sv` and invoice `si` (aliases of their
 * own, so that a box's query can name its shipment without shadowing its own `v` and `i`): what
 * is written on the carrier's paperwork first.
 */
export const SHIPMENT_LABEL = `COALESCE(s.tracking, 'Shipment ' || s.id)
  || COALESCE(' (' || s.carrier || ')', '') || ', ' || sv.name
  || COALESCE(', invoice ' || si.invoice_no, '')`;

/**
 * The options of the receiving pages' pickers. Each page registers its own endpoint under its
 * own guard; the SQL is shared.
 */
export const PICKERS = {
  vendors: (db: Queryable, search: string | undefined, activeOnly = true) =>
    db.query<PickerOption>(
      `SELECT id, name AS label FROM vendors
       WHERE ($2 OR active) AND ($1::text IS NULL OR name ILIKE $1)
       ORDER BY lower(name), id LIMIT ${PICKER_LIMIT}`,
      [containsPattern(search), !activeOnly],
    ),

  models: (db: Queryable, search: string | undefined) =>
    db.query<PickerOption>(
      `SELECT m.id, ${MODEL_DISPLAY_NAME} AS label
       FROM device_models m JOIN brands b ON b.id = m.brand_id
       WHERE m.active AND ($1::text IS NULL OR (${MODEL_DISPLAY_NAME}) ILIKE $1
         OR array_to_string(m.model_numbers, ' ') ILIKE $1)
       ORDER BY m.sort_name, m.id LIMIT ${PICKER_LIMIT}`,
      [containsPattern(search)],
    ),

  colors: (db: Queryable, search: string | undefined) =>
    db.query<PickerOption>(
      `SELECT id, name AS label FROM colors
       WHERE active AND ($1::text IS NULL OR name ILIKE $1 OR array_to_string(aliases, ' ') ILIKE $1)
       ORDER BY lower(name), id LIMIT ${PICKER_LIMIT}`,
      [containsPattern(search)],
    ),

  /** Invoices not closed yet, newest first, by number or vendor. */
  openInvoices: (db: Queryable, search: string | undefined) =>
    db.query<PickerOption>(
      `SELECT i.id, i.invoice_no || ' (' || v.name || ')' AS label
       FROM purchase_invoices i JOIN vendors v ON v.id = i.vendor_id
       WHERE i.status <> 'closed' AND ($1::text IS NULL OR i.invoice_no ILIKE $1 OR v.name ILIKE $1)
       ORDER BY i.id DESC LIMIT ${PICKER_LIMIT}`,
      [containsPattern(search)],
    ),

  /**
   * Shipments not received yet, newest first, by tracking number, carrier, vendor or invoice:
   * the one a carton came on, for its box.
   */
  openShipments: (db: Queryable, search: string | undefined) =>
    db.query<PickerOption>(
      `SELECT s.id, ${SHIPMENT_LABEL} AS label
       FROM inbound_shipments s JOIN vendors sv ON sv.id = s.vendor_id
       LEFT JOIN purchase_invoices si ON si.id = s.invoice_id
       WHERE s.status <> 'received' AND ($1::text IS NULL OR s.tracking ILIKE $1
         OR s.carrier ILIKE $1 OR sv.name ILIKE $1 OR si.invoice_no ILIKE $1)
       ORDER BY s.id DESC LIMIT ${PICKER_LIMIT}`,
      [containsPattern(search)],
    ),

  /** Every invoice, newest first (returns to vendor refer to closed ones too). */
  invoices: (db: Queryable, search: string | undefined) =>
    db.query<PickerOption>(
      `SELECT i.id, i.invoice_no || ' (' || v.name || ')' AS label
       FROM purchase_invoices i JOIN vendors v ON v.id = i.vendor_id
       WHERE ($1::text IS NULL OR i.invoice_no ILIKE $1 OR v.name ILIKE $1)
       ORDER BY i.id DESC LIMIT ${PICKER_LIMIT}`,
      [containsPattern(search)],
    ),
};
