import * as z from 'zod/mini';
import { LOCATION_ACCESS } from '../guards.js';
import { labelPrintable, printEndpoint } from '../documents.js';
import { defineEndpoint } from '../endpoint.js';
import { idParamsSchema, pickerOptionSchema, pickerQuerySchema, PICKER_LIMIT } from '../list.js';
import { entityId, optionalText } from '../master-data/fields.js';
import { booleanFilter, defineList, enumFilter, idFilter, listEndpoints } from '../resource.js';

/**
 * Storage locations (DOMAIN.md 4.2, `/inventory-box/location/update-location`): the warehouse's
 * tree of zone, aisle, rack, level and bin, each with a code that is its whole path ("A-01-03-B")
 * and a barcode label. Migration 0023.
 */

/** The kinds of a location, from the root of the tree down. */
export const LOCATION_KINDS = ['zone', 'aisle', 'rack', 'level', 'bin'] as const;
export type LocationKind = (typeof LOCATION_KINDS)[number];

/** The most locations one bulk create makes: a range past it is a mistake or another request. */
export const MAX_LOCATIONS_AT_ONCE = 2_000;
/** The most locations one activation, label print or audit names. */
export const MAX_LOCATIONS_SELECTED = 2_000;
/** The days to the next audit unless the person recording one chooses another date. */
export const DEFAULT_AUDIT_INTERVAL_DAYS = 90;

export const locationSchema = z.object({
  id: z.int(),
  code: z.string(),
  kind: z.enum(LOCATION_KINDS),
  parent_id: z.nullable(z.int()),
  parent_code: z.nullable(z.string()),
  zone_id: z.int(),
  zone_code: z.string(),
  name: z.nullable(z.string()),
  /** Its zone is the quarantine zone: held stock goes here, and nothing else. */
  quarantine: z.boolean(),
  /** Boxes it holds at most; null: no limit. */
  capacity_boxes: z.nullable(z.int()),
  active: z.boolean(),
  /** Located inventory boxes and item levels with units, in it and the locations under it. */
  holds: z.int(),
  last_audit_at: z.nullable(z.string()),
  last_audit_by_name: z.nullable(z.string()),
  /** A date (YYYY-MM-DD). */
  next_audit_due: z.nullable(z.string()),
  /** Its next audit is due today or earlier. */
  audit_due: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
});
export type Location = z.infer<typeof locationSchema>;

export const locationList = defineList({
  name: 'locations',
  singular: 'location',
  plural: 'Locations',
  tag: 'Locations',
  view: LOCATION_ACCESS,
  item: locationSchema,
  filters: {
    kind: enumFilter(LOCATION_KINDS),
    zone_id: idFilter,
    active: booleanFilter,
    quarantine: booleanFilter,
    audit_due: booleanFilter,
  },
  sorts: ['code', 'next_audit_due', 'updated_at'],
  defaultSort: 'code',
  exportColumns: [
    { key: 'code', header: 'Code', example: 'A-01-03-B' },
    { key: 'kind', header: 'Kind', example: 'level' },
    { key: 'zone_code', header: 'Zone', example: 'A' },
    { key: 'parent_code', header: 'Parent', example: 'A-01-03' },
    { key: 'name', header: 'Name', example: '' },
    { key: 'quarantine', header: 'Quarantine', example: 'no' },
    { key: 'capacity_boxes', header: 'Capacity (boxes)', example: '4' },
    { key: 'active', header: 'Active', example: 'yes' },
    { key: 'holds', header: 'Holds', example: '0' },
    { key: 'last_audit_at', header: 'Last audit', example: '' },
    { key: 'last_audit_by_name', header: 'Audited by', example: '' },
    { key: 'next_audit_due', header: 'Next audit due', example: '2027-02-25' },
    { key: 'id', header: 'ID', example: '1' },
  ],
});

/** One segment of a code: letters and digits, as the label prints it. */
const segment = (what: string) =>
  z.pipe(
    z
      .string(`Write the ${what}.`)
      .check(
        z.trim(),
        z.minLength(1, `Write the ${what}.`),
        z.maxLength(12, `The ${what} is at most 12 characters.`),
        z.regex(/^[A-Za-z0-9]*$/, `The ${what} is letters and digits only, like 01 or B.`),
      ),
    z.transform((text) => text.toUpperCase()),
  );

const capacity = z.optional(
  z.nullable(
    z
      .number('The capacity must be a whole number of boxes.')
      .check(
        z.int('The capacity must be a whole number of boxes.'),
        z.gte(1, 'The capacity is at least 1 box; leave it empty for no limit.'),
        z.lte(100_000, 'The capacity is at most 100000 boxes.'),
      ),
  ),
);

/**
 * A new location: a zone (its code whole, with the quarantine flag) or one child of a parent,
 * whose code is the parent's code and the segment ("A-01" and "03" make "A-01-03").
 */
export const createLocationSchema = z.object({
  kind: z.enum(LOCATION_KINDS, 'Choose the kind: zone, aisle, rack, level or bin.'),
  parent_id: z._default(z.nullable(entityId('parent location')), null),
  /** The whole code of a zone, or the segment a child adds to its parent's code. */
  segment: segment('code'),
  name: optionalText('name', 100),
  quarantine: z._default(z.boolean(), false),
  capacity_boxes: capacity,
});
export type CreateLocationInput = z.input<typeof createLocationSchema>;

export const createLocationEndpoint = defineEndpoint({
  method: 'POST',
  path: '/locations',
  summary: 'Create a zone, or one location under a parent (its code is the parent’s and a segment)',
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  body: createLocationSchema,
  response: locationSchema,
  successStatus: 201,
});

export const updateLocationSchema = z.object({
  name: optionalText('name', 100),
  capacity_boxes: capacity,
  /** A zone only: whether it is the quarantine zone (its locations follow). */
  quarantine: z.optional(z.boolean()),
});
export type UpdateLocationInput = z.input<typeof updateLocationSchema>;

export const updateLocationEndpoint = defineEndpoint({
  method: 'PUT',
  path: '/locations/:id',
  summary:
    'Change a location’s name or capacity (a zone’s quarantine flag); a field left out is kept',
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  params: idParamsSchema,
  body: updateLocationSchema,
  response: locationSchema,
});

/** One level of a range: its kind and the segments from `from` to `to` ("01".."20", "A".."D"). */
export const rangeLevelSchema = z.object({
  kind: z.enum(LOCATION_KINDS, 'Choose the kind: aisle, rack, level or bin.'),
  from: segment('first of the range'),
  to: segment('last of the range'),
});
export type RangeLevel = z.output<typeof rangeLevelSchema>;

export const bulkCreateLocationsSchema = z.object({
  parent_id: entityId('parent location'),
  /** Outermost first: racks 01..05, then levels A..D under each rack. */
  levels: z
    .array(rangeLevelSchema)
    .check(
      z.minLength(1, 'Give at least one range.'),
      z.maxLength(4, 'At most four levels of ranges: aisle, rack, level and bin.'),
    ),
  /** The capacity of the innermost locations; null: no limit. */
  capacity_boxes: capacity,
  /** Only count what would be created and what exists already; nothing is written. */
  dry_run: z._default(z.boolean(), false),
});
export type BulkCreateLocationsInput = z.input<typeof bulkCreateLocationsSchema>;

/** The most codes an answer lists by name; the counts are whole. */
export const BULK_CODES_SHOWN = 100;

export const bulkCreateResultSchema = z.object({
  dry_run: z.boolean(),
  /** Locations created (or, on a dry run, that would be). */
  created: z.int(),
  /** The first of them by code, up to BULK_CODES_SHOWN. */
  created_codes: z.array(z.string()),
  /** Codes of the range that exist already and were left as they are. */
  existing: z.int(),
  existing_codes: z.array(z.string()),
});
export type BulkCreateResult = z.infer<typeof bulkCreateResultSchema>;

export const bulkCreateLocationsEndpoint = defineEndpoint({
  method: 'POST',
  path: '/locations/ranges',
  summary: `Create ranges of locations under a parent (aisles 01..20, racks x levels), at most ${MAX_LOCATIONS_AT_ONCE}, in one transaction; a dry run only counts`,
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  body: bulkCreateLocationsSchema,
  response: bulkCreateResultSchema,
});

const locationIds = z
  .array(entityId('location'))
  .check(
    z.minLength(1, 'Choose at least one location.'),
    z.maxLength(
      MAX_LOCATIONS_SELECTED,
      `Choose at most ${MAX_LOCATIONS_SELECTED} locations at a time.`,
    ),
  );

export const setLocationsActiveEndpoint = defineEndpoint({
  method: 'POST',
  path: '/locations/activation',
  summary:
    'Activate or deactivate locations, all or none; one that holds anything (or whose locations below do) stays active (409)',
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  body: z.object({ ids: locationIds, active: z.boolean('Say whether to activate or deactivate.') }),
  response: z.object({ changed: z.int() }),
});

export const recordLocationAuditSchema = z.object({
  ids: locationIds,
  /** YYYY-MM-DD, after today; DEFAULT_AUDIT_INTERVAL_DAYS from today when left out. */
  next_audit_due: z.optional(z.nullable(z.iso.date('Write the next audit date as YYYY-MM-DD.'))),
});
export type RecordLocationAuditInput = z.input<typeof recordLocationAuditSchema>;

export const recordLocationAuditEndpoint = defineEndpoint({
  method: 'POST',
  path: '/locations/audits',
  summary:
    'Record a location audit: now, by me, and the date the next one is due (default 90 days on)',
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  body: recordLocationAuditSchema,
  response: z.object({ audited: z.int(), next_audit_due: z.string() }),
});

/** Location labels (2x1): the code as text and as a Code128 barcode, for the chosen locations. */
const locationLabel = labelPrintable('location-labels', ['2x1']);
export const locationLabelsEndpoint = printEndpoint({
  path: '/locations/labels',
  summary:
    'A download link for the labels (2x1 inch, Code128 code) of the chosen locations, as PDF or ZPL',
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  params: z.object({}),
  printable: { ...locationLabel, options: z.extend(locationLabel.options, { ids: locationIds }) },
});

/** Locations that may be a parent (every location but a bin), for the pickers. */
export const locationParentOptionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/locations/parent-options',
  summary: `Up to ${PICKER_LIMIT} locations that may hold others (not bins), for a picker`,
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  query: pickerQuerySchema,
  response: z.array(pickerOptionSchema),
});

export const locationZoneOptionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/locations/zone-options',
  summary: `Up to ${PICKER_LIMIT} zones, for a picker`,
  tag: 'Locations',
  guard: LOCATION_ACCESS,
  query: pickerQuerySchema,
  response: z.array(pickerOptionSchema),
});

export const locationEndpoints = listEndpoints(locationList);
