import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { fileURLToPath } from 'node:url';

/** The server's entry, run from source as `npm run dev` runs it. */
const serverEntry = fileURLToPath(new URL('../server.ts', import.meta.url));

export type Outcome = {
  code: number | null;
  signal: NodeJS.Signals | null;
  stdout: string;
  stderr: string;
};

export type ServerProcess = {
  readonly child: ChildProcess;
  readonly exited: Promise<Outcome>;
  output(): string;
};

/** Children started by a test file, for its afterAll to kill. */
export const children: ChildProcess[] = [];

/** Starts the server process with an environment of its own (no DATABASE_URL unless given). */
export function startServer(environment: Record<string, string>): ServerProcess {
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
    child.on('exit', (code, signal) => resolve({ code, signal, stdout, stderr })),
  );
  return { child, exited, output: () => stdout };
}

export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

export async function waitForHealth(port: number): Promise<void> {
  for (let attempt = 0; attempt < 240; attempt += 1) {
    const ok = await fetch(`http://127.0.0.1:${port}/api/v1/health`).then(
      (response) => response.ok,
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the server did not become healthy');
}
