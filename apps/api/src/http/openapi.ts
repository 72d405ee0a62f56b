import {
  API_BASE,
  errorEnvelopeSchema,
  type EndpointDefinition,
  type Schema,
} from '@inventory/contract';
import * as z from 'zod/mini';

type JsonSchema = Record<string, unknown>;

const toJsonSchema = (schema: Schema, io: 'input' | 'output'): JsonSchema => {
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' });
  return rest;
};

const envelope = (data: JsonSchema): JsonSchema => ({
  type: 'object',
  required: ['code', 'message', 'data'],
  properties: { code: { type: 'integer' }, message: { type: 'string' }, data },
});

const errorResponse = (description: string) => ({
  description,
  content: { 'application/json': { schema: toJsonSchema(errorEnvelopeSchema, 'output') } },
});

function parametersOf(endpoint: EndpointDefinition) {
  const parameters: JsonSchema[] = [];
  const add = (schema: Schema | undefined, location: 'path' | 'query') => {
    if (!schema) return;
    const json = toJsonSchema(schema, 'input') as {
      properties?: Record<string, JsonSchema>;
      required?: string[];
    };
    for (const [name, property] of Object.entries(json.properties ?? {})) {
      parameters.push({
        name,
        in: location,
        required: location === 'path' || (json.required ?? []).includes(name),
        schema: property,
      });
    }
  };
  add(endpoint.params, 'path');
  add(endpoint.query, 'query');
  return parameters;
}

function describeGuard(endpoint: EndpointDefinition): string {
  const guard = endpoint.guard;
  if (guard === 'public') return 'Public.';
  if (guard === 'session') return 'Any signed-in user.';
  if (guard === 'client-carrier') {
    return "A client carrier's system, by its API key in the `X-API-Key` header.";
  }
  if (guard.permission === 'roles') return `Needs one of the roles: ${guard.roles?.join(', ')}.`;
  return `Needs the permission \`${guard.permission}\`.`;
}

const securityOf = (guard: EndpointDefinition['guard']) => {
  if (guard === 'public') return [];
  return guard === 'client-carrier' ? [{ clientCarrierKey: [] }] : [{ bearer: [] }];
};

/** The OpenAPI 3.1 document of the registered endpoints, generated from their contract. */
export function buildOpenApiDocument(endpoints: readonly EndpointDefinition[], version: string) {
  const paths: Record<string, Record<string, unknown>> = {};
  for (const endpoint of endpoints) {
    const path = `${API_BASE}${endpoint.path}`.replace(/:([A-Za-z_]+)/g, '{$1}');
    const status = String(endpoint.successStatus ?? 200);
    (paths[path] ??= {})[endpoint.method.toLowerCase()] = {
      summary: endpoint.summary,
      description: [endpoint.description, describeGuard(endpoint)].filter(Boolean).join('\n\n'),
      tags: [endpoint.tag],
      security: securityOf(endpoint.guard),
      parameters: parametersOf(endpoint),
      ...(endpoint.body && {
        requestBody: {
          required: true,
          content: { 'application/json': { schema: toJsonSchema(endpoint.body, 'input') } },
        },
      }),
      ...(endpoint.fileBody && {
        requestBody: {
          required: true,
          content: {
            'application/octet-stream': {
              schema: { type: 'string', format: 'binary', maxLength: endpoint.fileBody.maxBytes },
            },
          },
        },
      }),
      responses: {
        [status]: {
          description: 'Success',
          content: {
            'application/json': {
              schema: envelope(toJsonSchema(endpoint.response, 'output')),
            },
          },
        },
        ...(endpoint.guard === 'client-carrier' && {
          401: errorResponse('No API key, or the key is unknown or revoked'),
        }),
        ...(endpoint.guard !== 'public' &&
          endpoint.guard !== 'client-carrier' && {
            401: errorResponse('No session, or the session expired or was ended'),
            403: errorResponse('The session lacks the permission or role named in the message'),
          }),
        ...((endpoint.body || endpoint.query || endpoint.params) && {
          422: errorResponse('Invalid input: message maps each field to its messages'),
        }),
        ...(endpoint.fileBody && {
          413: errorResponse(`The file is larger than ${endpoint.fileBody.maxBytes} bytes`),
        }),
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Inventory back office API',
      version,
      description:
        'Every answer is `{code, message, data}`; errors are `{code, message, requestId}`, with ' +
        '`message` a map of field to messages on 422.',
    },
    servers: [{ url: '/' }],
    components: {
      securitySchemes: {
        bearer: { type: 'http' as const, scheme: 'bearer' },
        clientCarrierKey: { type: 'apiKey' as const, in: 'header' as const, name: 'X-API-Key' },
      },
    },
    paths,
  };
}
