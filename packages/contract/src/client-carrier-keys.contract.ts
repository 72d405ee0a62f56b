import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';
import {
  idNumber,
  idParamsSchema,
  PICKER_LIMIT,
  pickerOptionSchema,
  pickerQuerySchema,
} from './list.js';
import { defineList, enumFilter, idFilter, listEndpoints } from './resource.js';

/** A key as its carrier's system sends it: `ck_` and 256 random bits in base64url. */
export const CLIENT_CARRIER_KEY_PATTERN = /^ck_[A-Za-z0-9_-]{43}$/;

export const CLIENT_CARRIER_KEY_STATES = ['active', 'revoked'] as const;

/** A client carrier's API key as lists show it: never the key, only its first characters. */
export const clientCarrierKeySchema = z.object({
  id: z.int(),
  client_carrier_id: z.int(),
  client_carrier_name: z.string(),
  name: z.string(),
  key_prefix: z.string(),
  status: z.enum(CLIENT_CARRIER_KEY_STATES),
  created_at: z.string(),
  created_by_name: z.nullable(z.string()),
  last_used_at: z.nullable(z.string()),
  revoked_at: z.nullable(z.string()),
  revoked_by_name: z.nullable(z.string()),
});
export type ClientCarrierKey = z.infer<typeof clientCarrierKeySchema>;

const MANAGE = { permission: 'client-carrier-key.manage' } as const;

/**
 * The API keys of the client carriers (the government-plan carriers that send orders by API),
 * newest first. Managed from the users page: a key is created for one carrier, shown once, and
 * revoked; only its hash is kept.
 */
export const clientCarrierKeyList = defineList({
  name: 'client-carrier-keys',
  singular: 'API key',
  plural: 'API keys',
  tag: 'Client carrier API',
  view: MANAGE,
  item: clientCarrierKeySchema,
  filters: {
    client_carrier_id: idFilter,
    status: enumFilter(CLIENT_CARRIER_KEY_STATES),
  },
  sorts: ['created_at'],
  defaultSort: 'created_at',
  defaultOrder: 'desc',
  exportColumns: [
    { key: 'client_carrier_name', header: 'Client carrier', example: 'AirTalk Wireless' },
    { key: 'name', header: 'Name', example: 'Enrolment system' },
    { key: 'key_prefix', header: 'Key starts', example: 'ck_Q2x1' },
    { key: 'status', header: 'Status', example: 'active' },
    { key: 'created_at', header: 'Created', example: '2026-01-31T08:00:00.000Z' },
    { key: 'created_by_name', header: 'Created by', example: 'admin' },
    { key: 'last_used_at', header: 'Last used', example: '2026-02-01T09:30:00.000Z' },
    { key: 'revoked_at', header: 'Revoked', example: '' },
  ],
});
export const clientCarrierKeyEndpoints = listEndpoints(clientCarrierKeyList);

export const createClientCarrierKeySchema = z.object({
  client_carrier_id: idNumber,
  name: z
    .string()
    .check(
      z.trim(),
      z.minLength(1, 'Name the key after the system that will use it.'),
      z.maxLength(100, 'The name is too long (at most 100 characters).'),
    ),
});
export type CreateClientCarrierKeyInput = z.input<typeof createClientCarrierKeySchema>;

export const createClientCarrierKeyEndpoint = defineEndpoint({
  method: 'POST',
  path: '/client-carrier-keys',
  summary: "Create a client carrier's API key; the answer holds the key, shown this once",
  tag: 'Client carrier API',
  guard: MANAGE,
  body: createClientCarrierKeySchema,
  response: z.object({ key: clientCarrierKeySchema, secret: z.string() }),
  successStatus: 201,
});

export const revokeClientCarrierKeyEndpoint = defineEndpoint({
  method: 'POST',
  path: '/client-carrier-keys/:id/revoke',
  summary: "Revoke a client carrier's API key: its next call is refused",
  tag: 'Client carrier API',
  guard: MANAGE,
  params: idParamsSchema,
  response: clientCarrierKeySchema,
});

export const clientCarrierOptionsEndpoint = defineEndpoint({
  method: 'GET',
  path: '/client-carrier-keys/carrier-options',
  summary: `Up to ${PICKER_LIMIT} active client carriers (vendors of type carrier-client)`,
  tag: 'Client carrier API',
  guard: MANAGE,
  query: pickerQuerySchema,
  response: z.array(pickerOptionSchema),
});
