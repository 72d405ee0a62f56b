import { randomUUID } from 'node:crypto';
import fastifyCompress from '@fastify/compress';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import { API_BASE, type EndpointDefinition } from '@inventory/contract';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { config as configureZod } from 'zod/mini';
import { en as englishMessages } from 'zod/locales';
import type { AppConfig } from './config.js';
import type { Db } from './db/db.js';
import { registerEndpoint } from './http/endpoint.js';
import { buildOpenApiDocument } from './http/openapi.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerUnreadBodyDrain } from './http/unread-body.js';
import { MODULES } from './modules/index.js';
import type { AppModule, ModuleContext } from './modules/module.js';
import { createDataVersions } from './toolkit/answer-cache.js';
import { createSessionService } from './modules/session/session.service.js';
import { registerAccessGuard } from './plugins/access-guard.js';
import { authenticateClientCarrier } from './modules/access/client-carrier-keys.service.js';
import { registerErrorHandler, registerNotFoundHandler } from './plugins/error-handler.js';
import { registerWebApp } from './plugins/web-app.js';
import { createDownloads } from './toolkit/downloads.js';

export type BuildOptions = {
  /** Checks every answer against its contract schema (tests). */
  readonly validateResponses?: boolean;
  /** Pino options override, e.g. a stream that tests read. */
  readonly logger?: Record<string, unknown>;
  /** Areas registered after the app's own: a test's lists of its own. */
  readonly modules?: readonly AppModule[];
  /** The read replica (`ModuleContext.replica`), closed with the app; the database by default. */
  readonly replica?: Db;
};

// zod/mini carries no messages of its own; the server answers in English where a schema names none.
configureZod(englishMessages());

/** An incoming request id is kept when it looks like one, so a caller can correlate logs. */
const REQUEST_ID = /^[A-Za-z0-9._-]{8,64}$/;

/** A one-use download link is as good as its file, so the log shows it without its token. */
const DOWNLOAD_TOKEN = new RegExp(`^(${API_BASE}/downloads/)[^/?#]+`);

/** The request as the log shows it, a download link's token redacted. */
function serializeRequest(request: FastifyRequest) {
  return {
    method: request.method,
    url: request.url.replace(DOWNLOAD_TOKEN, '$1[redacted]'),
    host: request.host,
    remoteAddress: request.ip,
    remotePort: request.socket?.remotePort,
  };
}

declare module 'fastify' {
  interface FastifyInstance {
    /** The contract endpoints registered, in order: OpenAPI and the access tests read it. */
    endpoints: EndpointDefinition[];
  }
}

/** Builds the application on an open database; never listens (tests use inject). */
export async function buildApp(
  config: AppConfig,
  db: Db,
  options: BuildOptions = {},
): Promise<FastifyInstance> {
  const app = Fastify({
    logger: {
      level: config.logLevel,
      redact: {
        paths: ['req.headers.authorization', 'req.headers.cookie', '*.password', '*.token'],
        censor: '[redacted]',
      },
      serializers: { req: serializeRequest },
      ...options.logger,
    },
    genReqId: (request) => {
      const incoming = request.headers['x-request-id'];
      return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID();
    },
    bodyLimit: 1_048_576,
    trustProxy: config.trustProxy.length > 0 ? [...config.trustProxy] : false,
  });
  registerErrorHandler(app);
  registerUnreadBodyDrain(app);
  registerSecurityHeaders(app, { hsts: config.hsts });
  app.decorate('endpoints', []);
  app.addHook('onRequest', (request, reply, done) => {
    reply.header('x-request-id', request.id);
    done();
  });
  const replica = options.replica ?? db;
  app.addHook('onClose', async () => {
    if (replica !== db) await replica.close();
    await db.close();
  });

  const sessions = createSessionService(db, config.session);
  registerAccessGuard(app, sessions, (apiKey) => authenticateClientCarrier(db, apiKey));
  await app.register(fastifyCompress, { threshold: 1024, encodings: ['br', 'gzip'] });

  const context: ModuleContext = {
    app,
    db,
    replica,
    config,
    sessions,
    downloads: createDownloads(db),
    dataVersions: createDataVersions(db),
    endpoint(endpoint, handler, endpointOptions) {
      app.endpoints.push(endpoint);
      registerEndpoint(app, endpoint, handler, {
        validateResponses: options.validateResponses ?? false,
        keepsAnswers: endpointOptions?.keepsAnswers ?? false,
      });
    },
  };
  for (const module of [...MODULES, ...(options.modules ?? [])]) module.register(context);

  const document = buildOpenApiDocument(app.endpoints, config.version);
  app.get(`${API_BASE}/openapi.json`, { config: { guard: 'public' } }, async () => document);
  await app.register(fastifySwagger, { mode: 'static', specification: { document } });
  // Without Swagger UI's top bar: its logo is an SVG with an inline <style>, which the policy
  // refuses; the rest of the reference runs under the app's own policy. Its sections start
  // closed, the schemas too: drawing hundreds of operations at once took a loaded browser over a
  // minute, and a reader opens the area they came for.
  await app.register(fastifySwaggerUi, {
    routePrefix: '/api/docs',
    uiConfig: { layout: 'BaseLayout', docExpansion: 'none', defaultModelsExpandDepth: -1 },
  });

  const spaFallback = config.webDist ? await registerWebApp(app, config.webDist) : null;
  registerNotFoundHandler(app, spaFallback);
  return app;
}
