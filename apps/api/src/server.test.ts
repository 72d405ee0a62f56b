import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { children, freePort, startServer, waitForHealth } from './test/server-process.js';

const dataDir = mkdtempSync(join(tmpdir(), 'inventory-server-'));

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

/** The one line the process printed, without stack frames. */
const oneLine = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '');

describe('the server process', () => {
  it('ends a bad configuration with one line and exit code 1', async () => {
    const { code, stderr } = await startServer({ PORT: 'abc', DATA_DIR: dataDir }).exited;
    expect(code).toBe(1);
    expect(oneLine(stderr)).toEqual(['inventory: configuration error: PORT must be a number']);
  });

  it('ends an unreachable database with one line and exit code 1', async () => {
    const { code, stderr } = await startServer({
      DATABASE_URL: 'postgres://postgres@127.0.0.1:1/none',
    }).exited;
    expect(code).toBe(1);
    expect(oneLine(stderr)).toHaveLength(1);
    expect(stderr).toMatch(
      /^inventory: database error: cannot connect to PostgreSQL at 127\.0\.0\.1:1/,
    );
  });

  it('creates the first admin, refuses a second process on the same data, stops gracefully', async () => {
    const port = await freePort();
    const first = startServer({ PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' });
    await waitForHealth(port);
    expect(first.output()).toContain('sign in as admin / admin');

    const second = await startServer({ PORT: String(await freePort()), DATA_DIR: dataDir }).exited;
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr)).toHaveLength(1);
    expect(second.stderr).toContain('the data directory is in use by another process');

    const busy = await startServer({ PORT: String(port), DATA_DIR: join(dataDir, 'other') }).exited;
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`port ${port} is already in use`);

    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    expect(stopped.code).toBe(0);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
    // Three server processes, two of which migrate a new database: about 30 s on a quiet machine.
  }, 120_000);
});
