import {
  ORDER_PROGRAMS,
  orderEndpoints,
  SUBSCRIBER_FULFILMENT_TYPES,
  supportOrderSchema,
  usAddressShape,
  type SupportOrderInput,
} from '@inventory/contract';
import * as z from 'zod/mini';
import { callEndpoint } from '../../../shell/http-client';
import { ActionDrawer } from '../../../toolkit/action-drawer';
import { pickerLoader } from '../../../toolkit/picker-options';
import type { FormField } from '../../../toolkit/resource-page-config';
import { optionsOf } from '../../master-data';

const lineShape = supportOrderSchema.shape.lines._zod.def.element.shape;

/**
 * The form's fields are flat; those of the service address and the line are named as the API
 * names them in a 422 ("service_address.zip", "lines.0.qty"), so its messages land on them.
 */
const formSchema = z.extend(
  z.omit(supportOrderSchema, { lines: true, service_address: true, ship_to: true }),
  {
    'service_address.line1': usAddressShape.line1,
    'service_address.line2': usAddressShape.line2,
    'service_address.city': usAddressShape.city,
    'service_address.state': usAddressShape.state,
    'service_address.zip': usAddressShape.zip,
    'lines.0.listing_id': lineShape.listing_id,
    'lines.0.qty': lineShape.qty,
  },
);

const FIELDS: FormField[] = [
  {
    name: 'client_carrier_id',
    label: 'Client carrier',
    kind: 'remote',
    required: true,
    load: pickerLoader(orderEndpoints.carrierOptions),
  },
  {
    name: 'program',
    label: 'Programme',
    kind: 'select',
    required: true,
    options: optionsOf(ORDER_PROGRAMS),
  },
  {
    name: 'fulfilment_type',
    label: 'Type',
    kind: 'select',
    options: optionsOf(SUBSCRIBER_FULFILMENT_TYPES),
  },
  // An existing customer's device change may swap the SIM too (the server refuses it otherwise).
  { name: 'sim_swap', label: 'SIM swap: a new SIM ships with the device', kind: 'switch' },
  { name: 'external_id', label: 'Enrolment or account number', kind: 'text' },
  { name: 'first_name', label: 'First name', kind: 'text', required: true },
  { name: 'last_name', label: 'Last name', kind: 'text', required: true },
  { name: 'phone', label: 'Phone', kind: 'text' },
  { name: 'service_address.line1', label: 'Service address', kind: 'text', required: true },
  { name: 'service_address.line2', label: 'Address line 2', kind: 'text' },
  { name: 'service_address.city', label: 'City', kind: 'text', required: true },
  {
    name: 'service_address.state',
    label: 'State',
    kind: 'text',
    required: true,
    placeholder: 'TX',
  },
  { name: 'service_address.zip', label: 'ZIP code', kind: 'text', required: true },
  {
    name: 'lines.0.listing_id',
    label: 'Item (live listing)',
    kind: 'remote',
    required: true,
    load: pickerLoader(orderEndpoints.listingOptions),
    placeholder: 'Type a SKU',
  },
  { name: 'lines.0.qty', label: 'Quantity', kind: 'number', required: true, min: 1 },
  { name: 'notes', label: 'Notes', kind: 'textarea' },
];

/** The form's values as the API takes them. */
function bodyOf(values: Record<string, unknown>): SupportOrderInput {
  const nested: Record<string, unknown> = { service_address: {}, lines: [{}] };
  for (const [name, value] of Object.entries(values)) {
    if (value === undefined || value === '') continue;
    const [head, ...rest] = name.split('.');
    if (rest.length === 0) nested[name] = value;
    else if (head === 'service_address')
      (nested.service_address as Record<string, unknown>)[rest[0]!] = value;
    else (nested.lines as Record<string, unknown>[])[0]![rest[1]!] = value;
  }
  return nested as SupportOrderInput;
}

/**
 * A support order for a subscriber, entered by staff: it ships to the service address (change
 * it on the order afterwards), and is validated as every intake is, so it may go on hold.
 */
export function SupportOrderDrawer({
  onClose,
  onCreated,
}: {
  onClose: () => void;
  onCreated: (id: number) => void;
}) {
  return (
    <ActionDrawer
      title="New support order"
      intro="The order ships to the service address in the subscriber's name. It is validated when created: an address, duplicate or stock problem puts it on hold with the reason."
      fields={FIELDS}
      schema={formSchema}
      initialValues={{ fulfilment_type: 'support', 'lines.0.qty': 1 }}
      submitLabel="Create order"
      run={async (values) => {
        const created = (await callEndpoint(orderEndpoints.createSupport, { body: bodyOf(values) }))
          .data;
        onCreated(created.id);
        return created.status === 'on_hold'
          ? `Order ${created.number} is on hold: ${created.hold_note ?? created.hold_reason}`
          : `Order ${created.number} is ${created.status}.`;
      }}
      onClose={onClose}
    />
  );
}
