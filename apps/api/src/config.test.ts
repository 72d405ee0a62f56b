import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from './config.js';

describe('loadConfig', () => {
  it('defaults to port 3000, ./data on PGlite and info logs', () => {
    const config = loadConfig({});
    expect(config.port).toBe(3000);
    expect(config.database).toMatchObject({ kind: 'pglite' });
    expect(config.database.kind === 'pglite' && config.database.dataDir).toMatch(/\/data$/);
    expect(config.logLevel).toBe('info');
    expect(config.session).toEqual({ idleMs: 30 * 60_000, maxMs: 12 * 3_600_000 });
    expect(config.hsts).toBe(false);
  });

  it('sends HSTS only when HSTS=on (served behind TLS)', () => {
    expect(loadConfig({ HSTS: 'on' }).hsts).toBe(true);
    expect(loadConfig({ HSTS: 'off' }).hsts).toBe(false);
  });

  it('trusts X-Forwarded-For only from the proxies named in TRUST_PROXY', () => {
    expect(loadConfig({}).trustProxy).toEqual([]);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.5, 10.1.0.0/16,fd00::/8' }).trustProxy).toEqual([
      '10.0.0.5',
      '10.1.0.0/16',
      'fd00::/8',
    ]);
  });

  it('uses PostgreSQL when DATABASE_URL is set', () => {
    const config = loadConfig({ DATABASE_URL: 'postgres://u@db:5432/inventory' });
    expect(config.database).toEqual({
      kind: 'postgres',
      url: 'postgres://u@db:5432/inventory',
      readUrl: null,
    });
    const replicated = loadConfig({
      DATABASE_URL: 'postgres://u@db:5432/inventory',
      DATABASE_READ_URL: 'postgres://u@replica:5432/inventory',
    });
    expect(replicated.database).toMatchObject({ readUrl: 'postgres://u@replica:5432/inventory' });
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT must be a number'],
    [{ PORT: '70000' }, 'PORT must be between 0 and 65535'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL must start with postgres://'],
    [{ DATABASE_READ_URL: 'postgres://replica/x' }, 'DATABASE_READ_URL needs DATABASE_URL'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL must be one of'],
    [{ HSTS: 'yes' }, 'HSTS must be on or off'],
    [{ TRUST_PROXY: 'true' }, 'TRUST_PROXY must be a comma-separated list'],
    [{ TRUST_PROXY: '10.0.0.0/33' }, 'TRUST_PROXY must be a comma-separated list'],
  ])('refuses %o with a one-line reason', (environment, reason) => {
    expect(() => loadConfig(environment)).toThrow(ConfigError);
    expect(() => loadConfig(environment)).toThrow(reason);
  });
});
