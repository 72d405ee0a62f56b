import * as z from 'zod/mini';
import { defineEndpoint } from './endpoint.js';

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: z.enum(['pglite', 'postgres']),
  version: z.string(),
});

export const healthEndpoint = defineEndpoint({
  method: 'GET',
  path: '/health',
  summary: 'Liveness and database check',
  tag: 'Operations',
  guard: 'public',
  response: healthSchema,
});
