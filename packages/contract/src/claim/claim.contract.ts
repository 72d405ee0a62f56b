import * as z from 'zod/mini';
import { attachmentEndpoints, defineAttachments } from '../attachments.js';
import { defineEndpoint } from '../endpoint.js';
import { defineLifecycle } from '../lifecycle.js';
import { idParamsSchema } from '../list.js';
import { entityId, optionalText, requiredText, wholeNumber } from '../master-data/fields.js';
import { centsSchema } from '../receiving/receiving-fields.js';
import { PACKAGE_STATUSES, trackingCodeSchema } from '../shipment/packages.contract.js';
import { CARRIERS } from '../shipment/tracking-numbers.js';
import { timelineEventSchema } from '../timeline.js';

/**
 * Carrier claims (DOMAIN.md 3.7 Claim, 4.16 /shipment-management/claim): a claim against the
 * carrier of a lost or damaged parcel, its value prefilled from the order's prices and the
 * devices' cost, its proof attached, filed within the carrier's window (per carrier, on the page),
 * one open claim per package. A paid claim for a lost parcel writes its devices off as lost.
 * Migration 0069.
 */

/** The claims page and every claim endpoint: customer support's lead and finance. */
export const CLAIM_ACCESS = { permission: 'claim.manage' } as const;

/**
 * The carriers' filing terms are a manager's: claim.manage with the shipping manager's override
 * (no default role holds both; an administrator gives them on /roles).
 */
export const CLAIM_TERMS_ACCESS = {
  permission: 'claim.manage',
  andPermission: 'order.shipping-override',
} as const;

const TAG = 'Claims';

export const CLAIM_TYPES = ['lost', 'damaged', 'missing_contents'] as const;
export type ClaimType = (typeof CLAIM_TYPES)[number];

export const CLAIM_TYPE_WORDS: Record<ClaimType, string> = {
  lost: 'Lost',
  damaged: 'Damaged',
  missing_contents: 'Missing contents',
};

/**
 * The package state a claim of each type is made for: a lost parcel the shipping team flagged
 * lost (DOMAIN.md 3.3 "lost → claim", 4.16 "flag lost (→ claim)"); a damaged or rifled one that
 * was delivered.
 */
export const CLAIM_PACKAGE_STATUS = {
  lost: 'lost',
  damaged: 'delivered',
  missing_contents: 'delivered',
} as const satisfies Record<ClaimType, (typeof PACKAGE_STATUSES)[number]>;

export const CLAIM_STATUSES = ['draft', 'filed', 'in_review', 'paid', 'denied', 'closed'] as const;
export type ClaimStatus = (typeof CLAIM_STATUSES)[number];

export const claimLifecycle = defineLifecycle({
  name: 'claim',
  states: CLAIM_STATUSES,
  terminal: ['closed'],
  actions: {
    file: {
      from: ['draft'],
      to: 'filed',
      label: 'be filed with the carrier',
      event: 'filed',
      permission: CLAIM_ACCESS,
    },
    review: {
      from: ['filed'],
      to: 'in_review',
      label: 'be put in review',
      event: 'in_review',
      permission: CLAIM_ACCESS,
    },
    pay: {
      from: ['in_review'],
      to: 'paid',
      label: 'be recorded as paid',
      event: 'paid',
      permission: CLAIM_ACCESS,
    },
    deny: {
      from: ['in_review'],
      to: 'denied',
      label: 'be recorded as denied',
      event: 'denied',
      permission: CLAIM_ACCESS,
      reason: 'required',
    },
    /** A decided claim is closed; a draft never filed is closed to drop it. */
    close: {
      from: ['draft', 'paid', 'denied'],
      to: 'closed',
      label: 'be closed',
      event: 'closed',
      permission: CLAIM_ACCESS,
      reason: 'optional',
    },
  },
});
export type ClaimAction = keyof typeof claimLifecycle.actions;

// --- Rows ---

export const claimRowSchema = z.object({
  id: z.int(),
  number: z.string(),
  type: z.enum(CLAIM_TYPES),
  status: z.enum(CLAIM_STATUSES),
  package_id: z.int(),
  tracking_number: z.string(),
  carrier: z.enum(CARRIERS),
  order_id: z.int(),
  order_number: z.string(),
  declared_cents: z.int(),
  claimed_cents: z.int(),
  paid_cents: z.nullable(z.int()),
  carrier_claim_number: z.nullable(z.string()),
  note: z.nullable(z.string()),
  /** When the parcel was scanned out: the carrier's days count from it. */
  shipped_at: z.string(),
  /** A lost parcel's claim is not filed before this (the carrier's search period). */
  earliest_filing_at: z.nullable(z.string()),
  /** The last moment to file, by the carrier's terms now. */
  deadline_at: z.string(),
  /** A draft whose filing window has passed: it can only be closed. */
  past_deadline: z.boolean(),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
  filed_at: z.nullable(z.string()),
  decided_at: z.nullable(z.string()),
  closed_at: z.nullable(z.string()),
});
export type ClaimRow = z.infer<typeof claimRowSchema>;

/** A device the parcel carried, with what it cost us and what it was sold for. */
export const claimDeviceSchema = z.object({
  device_id: z.int(),
  imei: z.string(),
  model: z.string(),
  status: z.string(),
  cost_cents: z.nullable(z.int()),
  price_cents: z.int(),
});
export type ClaimDevice = z.infer<typeof claimDeviceSchema>;

export const claimDetailSchema = z.object({
  claim: claimRowSchema,
  devices: z.array(claimDeviceSchema),
  events: z.array(timelineEventSchema),
});
export type ClaimDetail = z.infer<typeof claimDetailSchema>;

/** A carrier's filing terms (days from scan-out). */
export const carrierTermsSchema = z.object({
  carrier: z.enum(CARRIERS),
  lost_wait_days: z.int(),
  filing_window_days: z.int(),
  updated_at: z.string(),
});
export type CarrierTerms = z.infer<typeof carrierTermsSchema>;

/** Claims still open, the latest closed, and the carriers' terms. */
export const claimBoardSchema = z.object({
  open: z.array(claimRowSchema),
  closed: z.array(claimRowSchema),
  terms: z.array(carrierTermsSchema),
});
export type ClaimBoard = z.infer<typeof claimBoardSchema>;

/** How many closed claims the board shows, newest first. */
export const CLAIM_BOARD_CLOSED_LIMIT = 50;

// --- Creating a claim from a parcel ---

export const claimPackageQuerySchema = z.object({ tracking_number: trackingCodeSchema });

/** A parcel looked up by its tracking number, with the values a claim starts from. */
export const claimPackageSchema = z.object({
  package_id: z.int(),
  tracking_number: z.string(),
  carrier: z.enum(CARRIERS),
  status: z.enum(PACKAGE_STATUSES),
  order_number: z.string(),
  shipped_at: z.nullable(z.string()),
  /** The order's prices of the devices shipped: the claim's declared value. */
  declared_cents: z.int(),
  /** What the devices cost us: the claimed value the form starts from. */
  claimed_cents: z.int(),
  devices: z.array(claimDeviceSchema),
  /** The package's open claim, if it has one. */
  open_claim_number: z.nullable(z.string()),
});
export type ClaimPackage = z.infer<typeof claimPackageSchema>;

export const createClaimSchema = z.object({
  package_id: entityId('parcel'),
  type: z.enum(CLAIM_TYPES, 'Choose the type of claim.'),
  declared_cents: centsSchema('declared value'),
  claimed_cents: z
    .number('The claimed value must be a number of cents.')
    .check(
      z.int('The claimed value must be a whole number of cents.'),
      z.gte(1, 'Claim at least one cent.'),
      z.lte(100_000_000, 'The claimed value is too large.'),
    ),
  note: optionalText('note', 2000),
});
export type CreateClaimInput = z.input<typeof createClaimSchema>;

export const fileClaimSchema = z.object({
  carrier_claim_number: requiredText("carrier's claim number", 60),
});
export const payClaimSchema = z.object({ paid_cents: centsSchema('amount paid') });
export const denyClaimSchema = z.object({ reason: requiredText('reason', 500) });
export const closeClaimSchema = z.object({ reason: optionalText('reason', 500) });

export const carrierTermsParamsSchema = z.object({
  carrier: z.enum(CARRIERS, 'Unknown carrier.'),
});
export const updateCarrierTermsSchema = z
  .object({
    lost_wait_days: wholeNumber('waiting period', 0, 90),
    filing_window_days: wholeNumber('filing window', 1, 365),
  })
  .check(
    z.refine((terms) => terms.lost_wait_days < terms.filing_window_days, {
      message: 'The waiting period must end before the filing window.',
      path: ['lost_wait_days'],
    }),
  );
export type UpdateCarrierTermsInput = z.input<typeof updateCarrierTermsSchema>;

export const claimAttachments = defineAttachments({
  kind: 'claim',
  path: '/claims',
  singular: 'claim',
  tag: TAG,
  view: CLAIM_ACCESS,
  manage: CLAIM_ACCESS,
});
export const claimAttachmentEndpoints = attachmentEndpoints(claimAttachments);

/** A step that takes no input. */
const noBody = z.object({});

/** A step of a claim's lifecycle: answers the claim as the drawer shows it. */
const claimAction = <B extends z.ZodMiniType>(path: string, summary: string, body: B) =>
  defineEndpoint({
    method: 'POST',
    path: `/claims/:id/${path}`,
    summary,
    tag: TAG,
    guard: CLAIM_ACCESS,
    params: idParamsSchema,
    body,
    response: claimDetailSchema,
  });

export const claimEndpoints = {
  board: defineEndpoint({
    method: 'GET',
    path: '/claims',
    summary: 'Open claims, the latest closed ones and the carriers’ filing terms',
    tag: TAG,
    guard: CLAIM_ACCESS,
    response: claimBoardSchema,
  }),
  detail: defineEndpoint({
    method: 'GET',
    path: '/claims/:id',
    summary: 'A claim with its devices and timeline',
    tag: TAG,
    guard: CLAIM_ACCESS,
    params: idParamsSchema,
    response: claimDetailSchema,
  }),
  parcel: defineEndpoint({
    method: 'GET',
    path: '/claims/parcels',
    summary: 'A parcel by its tracking number, with the values a claim on it starts from',
    tag: TAG,
    guard: CLAIM_ACCESS,
    query: claimPackageQuerySchema,
    response: claimPackageSchema,
  }),
  create: defineEndpoint({
    method: 'POST',
    path: '/claims',
    summary: 'Draft a claim on a parcel (one open claim per parcel)',
    tag: TAG,
    guard: CLAIM_ACCESS,
    body: createClaimSchema,
    response: claimDetailSchema,
    successStatus: 201,
  }),
  file: claimAction(
    'file',
    "File a draft with the carrier, with the carrier's claim number, within its window",
    fileClaimSchema,
  ),
  review: claimAction('review', 'The carrier reviews the claim', noBody),
  pay: claimAction(
    'pay',
    "Record the carrier's payment: a lost parcel's devices are written off as lost",
    payClaimSchema,
  ),
  deny: claimAction('deny', "Record the carrier's denial, with its reason", denyClaimSchema),
  close: claimAction('close', 'Close a decided claim, or drop a draft', closeClaimSchema),
  updateTerms: defineEndpoint({
    method: 'PUT',
    path: '/claims/carrier-terms/:carrier',
    summary: "Change a carrier's claim filing terms (a manager)",
    tag: TAG,
    guard: CLAIM_TERMS_ACCESS,
    params: carrierTermsParamsSchema,
    body: updateCarrierTermsSchema,
    response: carrierTermsSchema,
  }),
};
