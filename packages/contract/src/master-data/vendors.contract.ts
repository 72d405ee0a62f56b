import * as z from 'zod/mini';
import { booleanFilter, defineResource, enumFilter, resourceEndpoints } from '../resource.js';
import { optionalEmail, optionalPhone, optionalText, requiredText, stampShape } from './fields.js';

export const VENDOR_TYPES = ['supplier', 'recycler', 'repair', 'carrier-client'] as const;
export type VendorType = (typeof VENDOR_TYPES)[number];

export const vendorSchema = z.object({
  id: z.int(),
  name: z.string(),
  type: z.enum(VENDOR_TYPES),
  contact_name: z.nullable(z.string()),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  terms: z.nullable(z.string()),
  rtv_address: z.nullable(z.string()),
  notes: z.nullable(z.string()),
  ...stampShape,
});
export type Vendor = z.infer<typeof vendorSchema>;

const vendorFields = {
  name: requiredText('vendor name', 200),
  type: z.enum(VENDOR_TYPES, `Choose a type: ${VENDOR_TYPES.join(', ')}.`),
  contact_name: optionalText('contact name', 200),
  email: optionalEmail,
  phone: optionalPhone,
  /** Payment terms: "Net 30". */
  terms: optionalText('terms', 200),
  /** Where returns to the vendor (RTV) are shipped. */
  rtv_address: optionalText('RTV address', 1000),
  notes: optionalText('notes', 4000),
  active: z.boolean(),
};

export const createVendorSchema = z.object({
  ...vendorFields,
  contact_name: z._default(vendorFields.contact_name, null),
  email: z._default(vendorFields.email, null),
  phone: z._default(vendorFields.phone, null),
  terms: z._default(vendorFields.terms, null),
  rtv_address: z._default(vendorFields.rtv_address, null),
  notes: z._default(vendorFields.notes, null),
  active: z._default(vendorFields.active, true),
});
export type CreateVendorInput = z.input<typeof createVendorSchema>;
export const updateVendorSchema = z.partial(z.object(vendorFields));

export const vendorResource = defineResource({
  name: 'vendors',
  singular: 'vendor',
  plural: 'Vendors',
  tag: 'Master data',
  view: { permission: 'vendor.view-list' },
  manage: { permission: 'vendor.manage' },
  item: vendorSchema,
  create: createVendorSchema,
  update: updateVendorSchema,
  filters: { active: booleanFilter, type: enumFilter(VENDOR_TYPES) },
  sorts: ['name', 'type', 'updated_at'],
  defaultSort: 'name',
  importColumns: [
    { key: 'name', header: 'Name', required: true, example: 'Acme Wireless Supply' },
    {
      key: 'type',
      header: 'Type',
      required: true,
      example: 'supplier',
      hint: VENDOR_TYPES.join(', '),
    },
    { key: 'contact_name', header: 'Contact', example: 'Dana Ruiz' },
    { key: 'email', header: 'Email', example: 'orders@acme.example' },
    { key: 'phone', header: 'Phone', example: '+1 555 010 2030' },
    { key: 'terms', header: 'Terms', example: 'Net 30' },
    { key: 'rtv_address', header: 'RTV address', example: '1 Dock Rd, Dallas TX 75201' },
    { key: 'notes', header: 'Notes', example: '' },
    { key: 'active', header: 'Active', kind: 'boolean', example: 'yes' },
  ],
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'name', header: 'Name', example: 'Acme Wireless Supply' },
    { key: 'type', header: 'Type', example: 'supplier' },
    { key: 'contact_name', header: 'Contact', example: 'Dana Ruiz' },
    { key: 'email', header: 'Email', example: 'orders@acme.example' },
    { key: 'phone', header: 'Phone', example: '+1 555 010 2030' },
    { key: 'terms', header: 'Terms', example: 'Net 30' },
    { key: 'rtv_address', header: 'RTV address', example: '1 Dock Rd, Dallas TX 75201' },
    { key: 'notes', header: 'Notes', example: '' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

export const vendorEndpoints = resourceEndpoints(vendorResource);
