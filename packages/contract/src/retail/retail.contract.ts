import * as z from 'zod/mini';
import { US_STATES } from '../address.js';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { USER_TYPES } from '../auth.contract.js';
import { defineEndpoint } from '../endpoint.js';
import { ORDER_STATUSES } from '../order/orders.contract.js';
import { usAddressShape } from '../order/us-address.js';
import { RETAILER_ACCESS } from '../guards.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema } from '../list.js';
import {
  entityId,
  optionalEmail,
  optionalPhone,
  optionalText,
  requiredText,
} from '../master-data/fields.js';
import { centsSchema, isoDate } from '../receiving/receiving-fields.js';
import { defineList, enumFilter, listEndpoints, writeEndpoints } from '../resource.js';
import { createUserInputSchema, userWithPasswordSchema } from '../users.contract.js';

/** Retail customers (DOMAIN.md 2.2 "Retailer", 4.8): B2B accounts with terms and certificates. */

export const RETAILER_TYPES = ['store', 'dealer', 'distributor'] as const;
export type RetailerType = (typeof RETAILER_TYPES)[number];

/** Price tiers, lowest price last; the pricing slice prices each sellable per tier. */
export const RETAILER_PRICE_TIERS = ['standard', 'silver', 'gold', 'platinum'] as const;
export type RetailerPriceTier = (typeof RETAILER_PRICE_TIERS)[number];

/** Payment terms: prepaid buys on no credit; net N pays N days after the invoice. */
export const CREDIT_TERMS = ['prepaid', 'net15', 'net30', 'net60'] as const;
export type CreditTerms = (typeof CREDIT_TERMS)[number];

export const RETAILER_STATUSES = ['active', 'inactive'] as const;
export type RetailerStatus = (typeof RETAILER_STATUSES)[number];

/**
 * Where a resale certificate stands: missing (no number, expiry or file), expired, expiring
 * (within CERTIFICATE_EXPIRING_DAYS) or valid. Expiring is still valid.
 */
export const CERTIFICATE_STATUSES = ['missing', 'expired', 'expiring', 'valid'] as const;
export type CertificateStatus = (typeof CERTIFICATE_STATUSES)[number];
export const CERTIFICATE_EXPIRING_DAYS = 30;

export const ADDRESS_KINDS = ['billing', 'shipping'] as const;
export type AddressKind = (typeof ADDRESS_KINDS)[number];

export const retailerSchema = z.object({
  id: z.int(),
  name: z.string(),
  legal_name: z.nullable(z.string()),
  type: z.enum(RETAILER_TYPES),
  tax_id: z.nullable(z.string()),
  price_tier: z.enum(RETAILER_PRICE_TIERS),
  credit_terms: z.enum(CREDIT_TERMS),
  credit_limit_cents: z.int(),
  /** What was set; it holds only while the certificate is valid (`tax_exempt_now`). */
  tax_exempt: z.boolean(),
  /** Tax-exempt today: set, and the certificate valid (an expired one ends the exemption). */
  tax_exempt_now: z.boolean(),
  resale_certificate_no: z.nullable(z.string()),
  resale_certificate_expires_on: z.nullable(z.string()),
  certificate_status: z.enum(CERTIFICATE_STATUSES),
  account_rep_id: z.nullable(z.int()),
  account_rep: z.nullable(z.string()),
  /** The main contact's name. */
  main_contact: z.nullable(z.string()),
  /** The state of the default billing address, else of the default shipping address. */
  state: z.nullable(z.string()),
  portal_users: z.int(),
  /** Its orders still open (OPEN_ORDER_STATUSES). */
  open_orders: z.int(),
  /** What its orders of the last 12 months came to, cancelled and returned ones left out. */
  revenue_12m_cents: z.int(),
  status: z.enum(RETAILER_STATUSES),
  notes: z.nullable(z.string()),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Retailer = z.infer<typeof retailerSchema>;

export const retailerAddressSchema = z.object({
  id: z.int(),
  kind: z.enum(ADDRESS_KINDS),
  line1: z.string(),
  line2: z.nullable(z.string()),
  city: z.string(),
  state: z.string(),
  zip: z.string(),
  is_default: z.boolean(),
});
export type RetailerAddress = z.infer<typeof retailerAddressSchema>;

export const retailerContactSchema = z.object({
  id: z.int(),
  name: z.string(),
  email: z.nullable(z.string()),
  phone: z.nullable(z.string()),
  role: z.nullable(z.string()),
  is_main: z.boolean(),
});
export type RetailerContact = z.infer<typeof retailerContactSchema>;

/** An address as the form writes it; an existing one keeps its id. */
export const retailerAddressInputSchema = z.object({
  id: z.optional(entityId('address')),
  kind: z.enum(ADDRESS_KINDS, 'Choose billing or shipping.'),
  ...usAddressShape,
  is_default: z._default(z.boolean(), false),
});
export type RetailerAddressInput = z.input<typeof retailerAddressInputSchema>;

/** A contact as the form writes it; an existing one keeps its id. */
export const retailerContactInputSchema = z.object({
  id: z.optional(entityId('contact')),
  name: requiredText('contact name', 200),
  email: optionalEmail,
  phone: optionalPhone,
  role: optionalText('role', 100),
  is_main: z._default(z.boolean(), false),
});
export type RetailerContactInput = z.input<typeof retailerContactInputSchema>;

const retailerFields = {
  name: requiredText('retailer name', 200),
  legal_name: optionalText('legal name', 200),
  type: z.enum(RETAILER_TYPES, 'Choose store, dealer or distributor.'),
  tax_id: optionalText('tax ID', 40),
  price_tier: z.enum(RETAILER_PRICE_TIERS, 'Choose a price tier.'),
  credit_terms: z.enum(CREDIT_TERMS, 'Choose the credit terms.'),
  credit_limit_cents: centsSchema('credit limit'),
  /** Refused (422) unless the retailer's resale certificate is valid. */
  tax_exempt: z.boolean(),
  account_rep_id: z.optional(z.nullable(entityId('account rep'))),
  notes: optionalText('notes', 4000),
  addresses: z.array(retailerAddressInputSchema).check(z.maxLength(50, 'At most 50 addresses.')),
  contacts: z.array(retailerContactInputSchema).check(z.maxLength(50, 'At most 50 contacts.')),
};

export const createRetailerSchema = z.object({
  ...retailerFields,
  price_tier: z._default(retailerFields.price_tier, 'standard'),
  credit_terms: z._default(retailerFields.credit_terms, 'prepaid'),
  credit_limit_cents: z._default(retailerFields.credit_limit_cents, 0),
  tax_exempt: z._default(retailerFields.tax_exempt, false),
  addresses: z._default(retailerFields.addresses, []),
  contacts: z._default(retailerFields.contacts, []),
});
export type CreateRetailerInput = z.input<typeof createRetailerSchema>;

/** A field left out is kept; `addresses` or `contacts`, when given, is the whole new list. */
export const updateRetailerSchema = z.partial(z.object(retailerFields));
export type UpdateRetailerInput = z.input<typeof updateRetailerSchema>;

export const retailerList = defineList({
  name: 'retailers',
  singular: 'retailer',
  plural: 'Retailers',
  tag: 'Retail customers',
  view: RETAILER_ACCESS,
  item: retailerSchema,
  filters: {
    type: enumFilter(RETAILER_TYPES),
    state: enumFilter(US_STATES),
    status: enumFilter(RETAILER_STATUSES),
    price_tier: enumFilter(RETAILER_PRICE_TIERS),
    certificate: enumFilter(CERTIFICATE_STATUSES),
  },
  sorts: ['name', 'certificate_expires_on', 'updated_at'],
  defaultSort: 'name',
  exportColumns: [
    { key: 'id', header: 'ID', example: '1' },
    { key: 'name', header: 'Name', example: 'Corner Wireless' },
    { key: 'legal_name', header: 'Legal name', example: 'Corner Wireless LLC' },
    { key: 'type', header: 'Type', example: 'store' },
    { key: 'tax_id', header: 'Tax ID', example: '12-3456789' },
    { key: 'main_contact', header: 'Main contact', example: 'Dana Ruiz' },
    { key: 'state', header: 'State', example: 'TX' },
    { key: 'price_tier', header: 'Price tier', example: 'gold' },
    { key: 'credit_terms', header: 'Credit terms', example: 'net30' },
    { key: 'credit_limit_cents', header: 'Credit limit (cents)', example: '500000' },
    { key: 'tax_exempt_now', header: 'Tax-exempt', example: 'yes' },
    { key: 'resale_certificate_no', header: 'Resale certificate', example: 'TX-RC-1001' },
    { key: 'resale_certificate_expires_on', header: 'Certificate expires', example: '2027-06-30' },
    { key: 'certificate_status', header: 'Certificate', example: 'valid' },
    { key: 'account_rep', header: 'Account rep', example: 'Jane Doe' },
    { key: 'open_orders', header: 'Open orders', example: '2' },
    { key: 'revenue_12m_cents', header: '12-month revenue (cents)', example: '1250000' },
    { key: 'status', header: 'Status', example: 'active' },
    { key: 'updated_at', header: 'Updated', example: '' },
  ],
});

/** The form writes of retailers: create, update (with addresses and contacts), delete. */
export const retailerForm = {
  name: retailerList.name,
  singular: retailerList.singular,
  tag: retailerList.tag,
  manage: RETAILER_ACCESS,
  item: retailerSchema,
  create: createRetailerSchema,
  update: updateRetailerSchema,
};

export const retailerEndpoints = {
  ...listEndpoints(retailerList),
  ...writeEndpoints(retailerForm),
};

export const retailerDetailSchema = z.object({
  retailer: retailerSchema,
  addresses: z.array(retailerAddressSchema),
  contacts: z.array(retailerContactSchema),
});
export type RetailerDetail = z.infer<typeof retailerDetailSchema>;

export const retailerDetailEndpoint = defineEndpoint({
  method: 'GET',
  path: '/retailers/:id/detail',
  summary: 'A retailer with its addresses and contacts',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  response: retailerDetailSchema,
});

export const resaleCertificateBodySchema = z.object({
  resale_certificate_no: requiredText('certificate number', 60),
  resale_certificate_expires_on: isoDate('expiry date'),
});
export type ResaleCertificateInput = z.input<typeof resaleCertificateBodySchema>;

export const setResaleCertificateEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/retailers/:id/resale-certificate',
  summary:
    "Record the resale certificate's number and expiry (its file is an attachment); an expired one is refused while the retailer is tax-exempt",
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  body: resaleCertificateBodySchema,
  response: retailerSchema,
});

export const deactivateRetailerEndpoint = defineEndpoint({
  method: 'POST',
  path: '/retailers/:id/deactivate',
  summary: 'Deactivate a retailer: it is kept, and can no longer be ordered for',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  response: retailerSchema,
});

export const reactivateRetailerEndpoint = defineEndpoint({
  method: 'POST',
  path: '/retailers/:id/reactivate',
  summary: 'Reactivate a deactivated retailer',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  response: retailerSchema,
});

/** How many of a retailer's latest orders its drawer shows; the order list has them all. */
export const RETAILER_LATEST_ORDERS = 10;

/** One of a retailer's orders, as its drawer lists it. */
export const retailerOrderSchema = z.object({
  id: z.int(),
  number: z.string(),
  status: z.enum(ORDER_STATUSES),
  total_cents: z.int(),
  created_at: z.string(),
});
export type RetailerOrder = z.infer<typeof retailerOrderSchema>;

export const retailerOrdersEndpoint = defineEndpoint({
  method: 'GET',
  path: '/retailers/:id/orders',
  summary: `The retailer's latest ${RETAILER_LATEST_ORDERS} orders, newest first`,
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  response: z.array(retailerOrderSchema),
});

/** A retailer's files: its resale certificate (PDF or a photo of it). */
export const retailerAttachments = defineAttachments({
  kind: 'retailer',
  path: '/retailers',
  singular: 'retailer',
  tag: 'Retail customers',
  view: RETAILER_ACCESS,
  manage: RETAILER_ACCESS,
});
export const retailerAttachmentEndpoints = attachmentEndpoints(retailerAttachments);

/**
 * A person of the retailer who signs in to its portal, or a field agent linked to the dealer they
 * work for (type agent), who orders on its account.
 */
export const portalUserSchema = z.object({
  id: z.int(),
  user_name: z.string(),
  name: z.string(),
  type: z.enum(USER_TYPES),
  email: z.nullable(z.string()),
  status: z.string(),
  /** 1 until they set their own password at first sign-in. */
  first_login: z.union([z.literal(0), z.literal(1)]),
  last_login_at: z.nullable(z.string()),
  created_at: z.string(),
});
export type PortalUser = z.infer<typeof portalUserSchema>;

/** A portal user's account: the access area's user fields and rules (user name, email, phone). */
export const createPortalUserSchema = z.pick(createUserInputSchema, {
  user_name: true,
  name: true,
  email: true,
  phone: true,
});
export type CreatePortalUserInput = z.input<typeof createPortalUserSchema>;

export const portalUsersEndpoint = defineEndpoint({
  method: 'GET',
  path: '/retailers/:id/portal-users',
  summary: "The retailer's portal users",
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  response: z.array(portalUserSchema),
});

export const createPortalUserEndpoint = defineEndpoint({
  method: 'POST',
  path: '/retailers/:id/portal-users',
  summary:
    'Create a portal user of an active retailer with a temporary password, shown once; they set their own at first sign-in',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  body: createPortalUserSchema,
  response: userWithPasswordSchema,
  successStatus: 201,
});

export const agentOptionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/retailers/agent-options',
  summary: 'Up to 20 active field agents not yet linked to a dealer, for a picker',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  query: pickerQuerySchema,
  response: z.array(pickerOptionSchema),
});

export const linkAgentSchema = z.object({ user_id: entityId('field agent') });
export type LinkAgentInput = z.input<typeof linkAgentSchema>;

export const linkAgentEndpoint = defineEndpoint({
  method: 'POST',
  path: '/retailers/:id/agents',
  summary: 'Link a field agent to the dealer they work for: they order on its account',
  description:
    'The user must be an active agent; an agent works for one dealer at a time, so one linked ' +
    'elsewhere is a 409 naming that dealer (unlink them there first).',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: idParamsSchema,
  body: linkAgentSchema,
  response: portalUserSchema,
  successStatus: 201,
});

export const unlinkAgentEndpoint = defineEndpoint({
  method: 'DELETE',
  path: '/retailers/:id/agents/:userId',
  summary: 'Unlink a field agent from the dealer: they no longer order on its account',
  description: "Orders they placed stay the dealer's; a portal user is not an agent (404).",
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  params: z.extend(idParamsSchema, {
    userId: z.coerce
      .number()
      .check(z.int('The id must be a whole number.'), z.gte(1, 'Unknown id.')),
  }),
  response: z.null(),
});

export const accountRepOptionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/retailers/account-rep-options',
  summary: 'Up to 20 active staff members who may look after a retailer, for a picker',
  tag: 'Retail customers',
  guard: RETAILER_ACCESS,
  query: pickerQuerySchema,
  response: z.array(pickerOptionSchema),
});
