import { readFileSync } from 'node:fs';
import { isIP } from 'node:net';
import { dirname, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { z } from 'zod';

const here = dirname(fileURLToPath(import.meta.url));
/** apps/api, whether running from src (tsx, tests) or from dist (built). */
export const API_ROOT = resolve(here, '..');

const emptyAsUndefined = (value: unknown) => (value === '' ? undefined : value);

/** An address or a CIDR range (`10.0.0.0/8`, `fd00::/8`). */
const isAddressOrRange = (entry: string) => {
  const [address = '', bits, ...rest] = entry.split('/');
  const version = isIP(address);
  if (version === 0 || rest.length > 0) return false;
  if (bits === undefined) return true;
  const prefix = Number(bits);
  return /^\d+$/.test(bits) && prefix <= (version === 4 ? 32 : 128);
};

const environmentSchema = z.object({
  PORT: z.preprocess(
    emptyAsUndefined,
    z.coerce
      .number({ error: 'PORT must be a number' })
      .int('PORT must be a whole number')
      .min(0, 'PORT must be between 0 and 65535')
      .max(65535, 'PORT must be between 0 and 65535')
      .default(3000),
  ),
  HOST: z.preprocess(emptyAsUndefined, z.string().default('0.0.0.0')),
  DATA_DIR: z.preprocess(emptyAsUndefined, z.string().default('./data')),
  SIM_CARRIER_EXPORTS_DIR: z.preprocess(emptyAsUndefined, z.string().optional()),
  DATABASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'DATABASE_URL must start with postgres:// or postgresql://')
      .optional(),
  ),
  DATABASE_READ_URL: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .regex(
        /^postgres(ql)?:\/\//,
        'DATABASE_READ_URL must start with postgres:// or postgresql://',
      )
      .optional(),
  ),
  LOG_LEVEL: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'], {
        error: 'LOG_LEVEL must be one of fatal, error, warn, info, debug, trace, silent',
      })
      .default('info'),
  ),
  SESSION_IDLE_MINUTES: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().positive('SESSION_IDLE_MINUTES must be positive').default(30),
  ),
  SESSION_MAX_HOURS: z.preprocess(
    emptyAsUndefined,
    z.coerce.number().positive('SESSION_MAX_HOURS must be positive').default(12),
  ),
  WEB_DIST: z.preprocess(emptyAsUndefined, z.string().optional()),
  HSTS: z.preprocess(
    emptyAsUndefined,
    z.enum(['on', 'off'], { error: 'HSTS must be on or off' }).default('off'),
  ),
  TRUST_PROXY: z.preprocess(
    emptyAsUndefined,
    z
      .string()
      .transform((value) => value.split(',').map((entry) => entry.trim()))
      .refine(
        (entries) => entries.every(isAddressOrRange),
        'TRUST_PROXY must be a comma-separated list of proxy addresses or CIDR ranges',
      )
      .default([]),
  ),
  CARRIER_ADAPTER: z.preprocess(
    emptyAsUndefined,
    z
      .enum(['offline', 'easypost'], { error: 'CARRIER_ADAPTER must be offline or easypost' })
      .default('offline'),
  ),
  EASYPOST_API_KEY: z.preprocess(emptyAsUndefined, z.string().optional()),
  EASYPOST_BASE_URL: z.preprocess(
    emptyAsUndefined,
    z
      .url({ error: 'EASYPOST_BASE_URL must be a URL such as https://api.easypost.com/v2/' })
      .optional(),
  ),
  EASYPOST_WEBHOOK_SECRET: z.preprocess(emptyAsUndefined, z.string().optional()),
});

export type LogLevel = z.infer<typeof environmentSchema>['LOG_LEVEL'];

export type DatabaseConfig =
  | { readonly kind: 'pglite'; readonly dataDir: string | null }
  | {
      readonly kind: 'postgres';
      readonly url: string;
      /**
       * A read replica for the reads that may lag a moment (list exports, reports and
       * statistics); null: they read the database itself.
       */
      readonly readUrl?: string | null;
    };

export type AppConfig = {
  readonly port: number;
  readonly host: string;
  readonly database: DatabaseConfig;
  readonly logLevel: LogLevel;
  readonly session: { readonly idleMs: number; readonly maxMs: number };
  /** Folder of the built web app; null serves the API only (tests, API-only deployments). */
  readonly webDist: string | null;
  /** Tell browsers to use HTTPS only (Strict-Transport-Security): on when served behind TLS. */
  readonly hsts: boolean;
  /**
   * Addresses of the proxies in front (TLS at a load balancer): a request from one of them is
   * taken to come from the client its X-Forwarded-For names, which the sign-in throttle, the
   * sessions and the audit log record. Empty: the connection's own address.
   */
  readonly trustProxy: readonly string[];
  /**
   * Where the built-in batch-file adapter of SIM detection reads client carriers' activation
   * exports: one folder per client carrier, named by its id (`<dir>/<id>/*.csv`).
   */
  readonly simCarrierExportsDir: string;
  readonly carrier: CarrierConfig;
  /** The secret EasyPost signs its tracking webhooks with; null: every webhook is refused. */
  readonly easypostWebhookSecret: string | null;
  readonly version: string;
};

/**
 * Who sells shipping labels and tracks parcels: the built-in offline carrier, or EasyPost by its
 * API key (`baseUrl` null: EasyPost's own address).
 */
export type CarrierConfig =
  | { readonly adapter: 'offline' }
  | { readonly adapter: 'easypost'; readonly apiKey: string; readonly baseUrl: string | null };

export class ConfigError extends Error {}

function readVersion(): string {
  const manifest = JSON.parse(readFileSync(resolve(API_ROOT, 'package.json'), 'utf8')) as {
    version: string;
  };
  return manifest.version;
}

/** Parses the environment; a bad value throws a ConfigError with a one-line reason. */
export function loadConfig(environment: NodeJS.ProcessEnv = process.env): AppConfig {
  const parsed = environmentSchema.safeParse(environment);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    throw new ConfigError(first ? first.message : 'invalid environment');
  }
  const env = parsed.data;
  if (env.DATABASE_READ_URL && !env.DATABASE_URL) {
    throw new ConfigError('DATABASE_READ_URL needs DATABASE_URL: a replica reads for a server');
  }
  if (env.CARRIER_ADAPTER === 'easypost' && !env.EASYPOST_API_KEY) {
    throw new ConfigError('EASYPOST_API_KEY must be set when CARRIER_ADAPTER is easypost');
  }
  return {
    port: env.PORT,
    host: env.HOST,
    database: env.DATABASE_URL
      ? { kind: 'postgres', url: env.DATABASE_URL, readUrl: env.DATABASE_READ_URL ?? null }
      : { kind: 'pglite', dataDir: resolve(env.DATA_DIR) },
    logLevel: env.LOG_LEVEL,
    session: {
      idleMs: env.SESSION_IDLE_MINUTES * 60_000,
      maxMs: env.SESSION_MAX_HOURS * 3_600_000,
    },
    webDist: resolve(env.WEB_DIST ?? resolve(API_ROOT, '../web/dist')),
    hsts: env.HSTS === 'on',
    trustProxy: env.TRUST_PROXY,
    simCarrierExportsDir: resolve(
      env.SIM_CARRIER_EXPORTS_DIR ?? resolve(env.DATA_DIR, 'carrier-exports'),
    ),
    carrier:
      env.CARRIER_ADAPTER === 'easypost'
        ? {
            adapter: 'easypost',
            apiKey: env.EASYPOST_API_KEY!,
            baseUrl: env.EASYPOST_BASE_URL ?? null,
          }
        : { adapter: 'offline' },
    easypostWebhookSecret: env.EASYPOST_WEBHOOK_SECRET ?? null,
    version: readVersion(),
  };
}
