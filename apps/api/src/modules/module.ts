import type { EndpointDefinition } from '@inventory/contract';
import type { FastifyInstance } from 'fastify';
import type { AppConfig } from '../config.js';
import type { Db } from '../db/db.js';
import type { EndpointHandler } from '../http/endpoint.js';
import type { DataVersions } from '../toolkit/answer-cache.js';
import type { Downloads } from '../toolkit/downloads.js';
import type { SessionService } from './session/session.service.js';

/** What a business area gets to register its endpoints. */
export type ModuleContext = {
  readonly app: FastifyInstance;
  readonly db: Db;
  /**
   * Where the reads that may lag a moment go: list exports, reports and statistics. A read
   * replica when DATABASE_READ_URL names one (read-only), else `db` itself.
   */
  readonly replica: Db;
  readonly config: AppConfig;
  readonly sessions: SessionService;
  /** One-use download links and the producers of their files. */
  readonly downloads: Downloads;
  /** The versions of the tables that lists read, for answers kept in memory. */
  readonly dataVersions: DataVersions;
  /** Registers one contract endpoint with its handler. */
  endpoint<E extends EndpointDefinition>(
    endpoint: E,
    handler: EndpointHandler<E>,
    options?: { readonly keepsAnswers?: boolean },
  ): void;
};

/** A business area of the server: one folder under modules/, listed in modules/index.ts. */
export type AppModule = {
  readonly name: string;
  register(context: ModuleContext): void;
};
