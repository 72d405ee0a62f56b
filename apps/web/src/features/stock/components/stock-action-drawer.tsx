import {
  accessoryStockEndpoints,
  partStockEndpoints,
  type EndpointDefinition,
  type Schema,
  type StockActionResult,
  type StockCountResult,
  type StockItemKind,
} from '@inventory/contract';
import { callEndpoint } from '../../../shell/http-client';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { centsOf } from '../../../toolkit/format';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField, FormValues, Option } from '../../../toolkit/resource-page-config';
import { useRefreshStock } from '../api/stock.queries';

export type StockAction = 'receive' | 'adjust' | 'move' | 'count';

/** What a row's action starts from: its item and its location. */
export type StockPreset = {
  readonly itemId: number;
  readonly itemLabel: string;
  readonly locationId: number;
  readonly locationLabel: string;
};

/** Each kind of item: its endpoints and the words its forms use. */
export const STOCK_KINDS = {
  accessory: {
    endpoints: accessoryStockEndpoints,
    itemField: 'accessory_id',
    itemLabel: 'Accessory',
    what: 'accessories',
  },
  part: {
    endpoints: partStockEndpoints,
    itemField: 'part_id',
    itemLabel: 'Part',
    what: 'parts',
  },
} as const;

const TITLES: Record<StockAction, string> = {
  receive: 'Receive',
  adjust: 'Adjust',
  move: 'Move',
  count: 'Count',
};

const INTROS: Partial<Record<StockAction, string>> = {
  adjust:
    'Every adjustment is a move in the stock ledger with its reason; stock never goes below zero.',
  count:
    'Enter what you counted. A difference from the books is written to the stock ledger as a ' +
    'count move, and the location notes the count; on hand never goes below what is reserved.',
};

type Values = FormValues<string>;

/** The fields of an action on a kind of item; a part's receipt adds its vendor and unit cost. */
function fieldsOf(kind: StockItemKind, action: StockAction): FormField[] {
  const { endpoints, itemField, itemLabel } = STOCK_KINDS[kind];
  const locations = pickerLoader(endpoints.locationOptions);
  const item: FormField = {
    name: itemField,
    label: itemLabel,
    kind: 'remote',
    required: true,
    load: pickerLoader(endpoints.itemOptions),
  };
  const location = (name: string, label: string): FormField => ({
    name,
    label,
    kind: 'remote',
    required: true,
    load: locations,
    placeholder: 'Type a location code',
  });
  const qty: FormField = { name: 'qty', label: 'Quantity', kind: 'number', required: true, min: 1 };
  const note: FormField = { name: 'note', label: 'Note', kind: 'textarea' };
  switch (action) {
    case 'receive':
      return [
        item,
        location('location_id', 'Into location'),
        qty,
        ...(kind === 'part'
          ? [
              {
                name: 'vendor_id',
                label: 'Vendor',
                kind: 'remote',
                required: true,
                load: pickerLoader(partStockEndpoints.vendorOptions),
              } satisfies FormField,
              {
                name: 'unit_cost',
                label: 'Unit cost',
                kind: 'number',
                required: true,
                min: 0,
                step: 0.01,
                precision: 2,
                help: "In dollars; the part's average cost follows the receipt.",
              } satisfies FormField,
            ]
          : []),
        {
          name: 'reference',
          label: 'Reference',
          kind: 'text',
          required: true,
          placeholder: 'Delivery note or purchase order',
        },
        note,
      ];
    case 'adjust':
      return [
        item,
        location('location_id', 'Location'),
        {
          name: 'qty',
          label: 'Quantity',
          kind: 'number',
          required: true,
          help: 'Positive adds units found; negative takes units lost or damaged.',
        },
        {
          name: 'reason',
          label: 'Reason',
          kind: 'textarea',
          required: true,
          placeholder: 'Damaged in storage, found in the wrong bin, miscounted…',
        },
      ];
    case 'move':
      return [
        item,
        location('from_location_id', 'From location'),
        location('to_location_id', 'To location'),
        qty,
        note,
      ];
    case 'count':
      return [
        item,
        location('location_id', 'Location'),
        {
          name: 'counted_qty',
          label: 'Quantity counted',
          kind: 'number',
          required: true,
          min: 0,
          help: 'Every unit there, reserved ones included; 0 when there is none.',
        },
        note,
      ];
  }
}

/** The body of an action from the form's values: a unit cost in dollars goes as cents. */
function bodyOf(values: Values): Record<string, unknown> {
  const { unit_cost: unitCost, ...rest } = values;
  return {
    ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
    ...(typeof unitCost === 'number' ? { unit_cost_cents: centsOf(unitCost) } : {}),
  };
}

/** What the action did, in words, with what is now at the locations it changed. */
function doneOf(
  action: Exclude<StockAction, 'count'>,
  item: string | null,
  result: StockActionResult,
) {
  const levels = result.levels.map((level) => `${level.on_hand} at ${level.location}`).join(', ');
  const verb = { receive: 'Received', adjust: 'Adjusted', move: 'Moved' }[action];
  const direction =
    action === 'adjust' ? (result.move.from_location_id === null ? ' up' : ' down') : '';
  return `${verb} ${result.move.qty}${item ? ` × ${item}` : ''}${direction}: now ${levels}.`;
}

/** What a count found against the books, and what is there now. */
export function countedOf(result: StockCountResult) {
  return result.lines
    .map((line) => {
      const off = Math.abs(line.difference);
      const books =
        line.difference === 0
          ? 'as the books said'
          : `${off} ${line.difference < 0 ? 'fewer' : 'more'} than the books (${line.book_qty})`;
      return `Counted ${line.counted_qty} × ${line.item} at ${result.location}: ${books}.`;
    })
    .join(' ');
}

/** Receive, adjust, move or count accessories or parts in a drawer. */
export function StockActionDrawer({
  kind,
  action,
  preset,
  onClose,
}: {
  kind: StockItemKind;
  action: StockAction;
  preset: StockPreset | null;
  onClose: () => void;
}) {
  const refresh = useRefreshStock();
  const { endpoints, itemField, what } = STOCK_KINDS[kind];
  const endpoint = action === 'count' ? endpoints.stockCount : endpoints[action];
  const locationField = action === 'move' ? 'from_location_id' : 'location_id';
  const initialValues: Values = preset
    ? { [itemField]: preset.itemId, [locationField]: preset.locationId }
    : {};
  const initialOptions: Record<string, Option[]> = preset
    ? {
        [itemField]: [{ value: preset.itemId, label: preset.itemLabel }],
        [locationField]: [{ value: preset.locationId, label: preset.locationLabel }],
      }
    : {};

  const run = async (values: Values) => {
    // Each body is checked by its own schema, here and on the server.
    const answer = await callEndpoint<EndpointDefinition & { readonly body: Schema }>(endpoint, {
      body: bodyOf(values),
    });
    await refresh();
    return action === 'count'
      ? countedOf(answer.data as StockCountResult)
      : doneOf(action, preset?.itemLabel ?? null, answer.data as StockActionResult);
  };

  return (
    <ActionDrawer
      title={`${TITLES[action]} ${preset ? preset.itemLabel : what}`}
      intro={INTROS[action]}
      fields={fieldsOf(kind, action)}
      schema={endpoint.body as Schema}
      initialValues={initialValues}
      initialOptions={initialOptions}
      submitLabel={TITLES[action]}
      run={run}
      onClose={onClose}
    />
  );
}
