import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';

const serverEntry = fileURLToPath(new URL('./server.ts', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'inventory-server-'));
const children: ChildProcess[] = [];

afterAll(() => {
  for (const child of children) child.kill('SIGKILL');
  rmSync(dataDir, { recursive: true, force: true });
});

type Outcome = { code: number | null; stdout: string; stderr: string };

function start(environment: Record<string, string>) {
  const child = spawn(process.execPath, ['--import', 'tsx', serverEntry], {
    env: { ...process.env, LOG_LEVEL: 'warn', DATABASE_URL: '', ...environment },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (chunk) => (stdout += String(chunk)));
  child.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<Outcome>((resolve) =>
    child.on('exit', (code) => resolve({ code, stdout, stderr })),
  );
  const output = () => stdout;
  return { child, exited, output };
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

async function waitForHealth(port: number) {
  for (let attempt = 0; attempt < 120; attempt += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not become healthy');
}

/** The one line the process printed, without stack frames. */
const oneLine = (stderr: string) => stderr.split('\n').filter((line) => line.trim() !== '');

describe('the server process', () => {
  it('ends a bad configuration with one line and exit code 1', async () => {
    const { code, stderr } = await start({ PORT: 'abc', DATA_DIR: dataDir }).exited;
    expect(code).toBe(1);
    expect(oneLine(stderr)).toEqual(['inventory: configuration error: PORT must be a number']);
  });

  it('ends an unreachable database with one line and exit code 1', async () => {
    const { code, stderr } = await start({
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
    const first = start({ PORT: String(port), DATA_DIR: dataDir, HOST: '127.0.0.1' });
    await waitForHealth(port);
    expect(first.output()).toContain('sign in as admin / admin');

    const second = await start({ PORT: String(await freePort()), DATA_DIR: dataDir }).exited;
    expect(second.code).toBe(1);
    expect(oneLine(second.stderr)).toHaveLength(1);
    expect(second.stderr).toContain('the data directory is in use by another process');

    const busy = await start({ PORT: String(port), DATA_DIR: join(dataDir, 'other') }).exited;
    expect(busy.code).toBe(1);
    expect(busy.stderr).toContain(`port ${port} is already in use`);

    first.child.kill('SIGTERM');
    const stopped = await first.exited;
    expect(stopped.code).toBe(0);
    expect(existsSync(join(dataDir, 'pglite.lock'))).toBe(false);
  });
});
