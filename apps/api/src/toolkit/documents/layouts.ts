import type { Sheet, SheetParty } from './sheet.js';

/**
 * The fulfilment documents as sheet layouts (DOMAIN.md 4.14 and 4.16: packing slips at pick and
 * at label print, pick lists on the assignment page, bills of lading for freight). Their
 * endpoints come with the fulfilment area, which declares them with `sheetPrintable` (decision
 * 0015).
 */

export type Address = { readonly name: string; readonly lines: readonly string[] };

const party = (title: string, address: Address): SheetParty => ({
  title,
  lines: [address.name, ...address.lines],
});

const count = (value: number) => value.toLocaleString('en-US');

export type PackingSlip = {
  readonly orderNumber: string;
  readonly orderDate: string;
  readonly shipFrom: Address;
  readonly shipTo: Address;
  readonly customerReference?: string;
  readonly carrier?: string;
  readonly trackingNumber?: string;
  /** A unit's serials (IMEI, ICCID) each on a line of their own under the item. */
  readonly lines: readonly {
    readonly sku: string;
    readonly description: string;
    readonly quantity: number;
    readonly serials: readonly string[];
  }[];
  readonly note?: string;
};

export function packingSlip(slip: PackingSlip): Sheet {
  const fields = [
    { label: 'Order date', value: slip.orderDate },
    ...(slip.customerReference ? [{ label: 'Reference', value: slip.customerReference }] : []),
    ...(slip.carrier ? [{ label: 'Carrier', value: slip.carrier }] : []),
    ...(slip.trackingNumber ? [{ label: 'Tracking', value: slip.trackingNumber }] : []),
  ];
  return {
    title: 'Packing slip',
    number: slip.orderNumber,
    parties: [party('Ship from', slip.shipFrom), party('Ship to', slip.shipTo)],
    fields,
    columns: [
      { header: 'SKU', width: 2 },
      { header: 'Description', width: 4 },
      { header: 'IMEI / ICCID', width: 3 },
      { header: 'Qty', width: 1, align: 'right' },
    ],
    rows: slip.lines.flatMap((line) => [
      [line.sku, line.description, line.serials[0] ?? '', count(line.quantity)],
      ...line.serials.slice(1).map((serial) => ['', '', serial, '']),
    ]),
    totals: [{ label: 'Units', value: count(slip.lines.reduce((sum, l) => sum + l.quantity, 0)) }],
    notes: slip.note ? [slip.note] : [],
    signatures: ['Packed by', 'Checked by'],
    footer: `Order ${slip.orderNumber}`,
  };
}

export type PickList = {
  readonly number: string;
  readonly createdAt: string;
  readonly picker?: string;
  readonly lines: readonly {
    readonly location: string;
    readonly box: string;
    readonly sku: string;
    readonly description: string;
    readonly order: string;
    readonly quantity: number;
  }[];
};

/** Lines in walking order: by location, then box, numbers within codes compared as numbers. */
export function pickList(list: PickList): Sheet {
  const walk = new Intl.Collator('en', { numeric: true });
  const lines = [...list.lines].sort(
    (a, b) => walk.compare(a.location, b.location) || walk.compare(a.box, b.box),
  );
  return {
    title: 'Pick list',
    number: list.number,
    fields: [
      { label: 'Created', value: list.createdAt },
      { label: 'Picker', value: list.picker ?? '' },
      { label: 'Orders', value: count(new Set(list.lines.map((line) => line.order)).size) },
    ],
    columns: [
      { header: 'Done', width: 1 },
      { header: 'Location', width: 2 },
      { header: 'Box', width: 2 },
      { header: 'SKU', width: 2 },
      { header: 'Description', width: 4 },
      { header: 'Order', width: 2 },
      { header: 'Qty', width: 1, align: 'right' },
    ],
    rows: lines.map((line) => [
      '[   ]',
      line.location,
      line.box,
      line.sku,
      line.description,
      line.order,
      count(line.quantity),
    ]),
    totals: [{ label: 'Units', value: count(lines.reduce((sum, l) => sum + l.quantity, 0)) }],
    signatures: ['Picked by', 'Checked by'],
    footer: `Pick list ${list.number}`,
  };
}

export type BillOfLading = {
  readonly number: string;
  readonly shipDate: string;
  readonly shipper: Address;
  readonly consignee: Address;
  /** Who pays the freight when the terms are 'third party'. */
  readonly billTo?: Address;
  readonly carrier: string;
  readonly scac?: string;
  readonly trailerNumber?: string;
  readonly sealNumber?: string;
  readonly proNumber?: string;
  readonly freightTerms: 'prepaid' | 'collect' | 'third party';
  readonly handlingUnits: readonly {
    readonly quantity: number;
    /** Pallet, carton, gaylord. */
    readonly type: string;
    readonly description: string;
    readonly weightLb: number;
    readonly nmfc?: string;
    readonly freightClass?: string;
    readonly hazardous?: boolean;
  }[];
  readonly specialInstructions?: string;
};

/** A straight bill of lading, not negotiable: the freight's receipt signed at pickup. */
export function billOfLading(bill: BillOfLading): Sheet {
  const units = bill.handlingUnits;
  const optional = (label: string, value: string | undefined) => (value ? [{ label, value }] : []);
  return {
    title: 'Bill of lading',
    number: bill.number,
    parties: [
      party('Ship from (shipper)', bill.shipper),
      party('Ship to (consignee)', bill.consignee),
      ...(bill.billTo ? [party('Bill freight to', bill.billTo)] : []),
    ],
    fields: [
      { label: 'Ship date', value: bill.shipDate },
      { label: 'Carrier', value: bill.carrier },
      { label: 'Freight terms', value: bill.freightTerms },
      ...optional('SCAC', bill.scac),
      ...optional('Trailer', bill.trailerNumber),
      ...optional('Seal', bill.sealNumber),
      ...optional('PRO', bill.proNumber),
    ],
    columns: [
      { header: 'Qty', width: 1, align: 'right' },
      { header: 'Type', width: 2 },
      { header: 'Description', width: 6 },
      { header: 'NMFC', width: 2 },
      { header: 'Class', width: 1 },
      { header: 'HM', width: 1 },
      { header: 'Weight (lb)', width: 2, align: 'right' },
    ],
    rows: units.map((unit) => [
      count(unit.quantity),
      unit.type,
      unit.description,
      unit.nmfc ?? '',
      unit.freightClass ?? '',
      unit.hazardous ? 'X' : '',
      count(unit.weightLb),
    ]),
    totals: [
      { label: 'Handling units', value: count(units.reduce((sum, u) => sum + u.quantity, 0)) },
      { label: 'Total weight (lb)', value: count(units.reduce((sum, u) => sum + u.weightLb, 0)) },
    ],
    notes: [
      ...(bill.specialInstructions ? [`Special instructions: ${bill.specialInstructions}`] : []),
      'Received, subject to the carrier tariffs in effect, the goods described above in apparent good order, except as noted.',
    ],
    signatures: ['Shipper', 'Carrier (driver)', 'Consignee'],
    footer: `Bill of lading ${bill.number} - not negotiable`,
  };
}
