import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { freePort, TEST_JWT_SECRET } from './helpers.js';

export interface PortalProcess {
  /** Where it serves, e.g. http://127.0.0.1:41234. */
  url: string;
  pid: number;
  /** Resolves when the process ends: its exit code, or the signal that ended it. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** What it wrote on stdout and stderr so far, for a failing test's message. */
  output(): string;
  kill(signal: NodeJS.Signals): void;
}

/**
 * The portal started as `npm start` starts it (`node --import tsx server/src/main.ts`), in a
 * process of its own on a folder of its own (DATA_DIR: the embedded database under db/, unless
 * `env` gives DATABASE_URL), taking the test app's tokens. Resolves once it answers its health
 * check; rejects with its output if it ends or does not answer within `withinMs`.
 */
export async function startPortal(dataDir: string, env: Record<string, string> = {}, withinMs = 60_000): Promise<PortalProcess> {
  const port = await freePort();
  const { DATABASE_URL: _inherited, ...inherited } = process.env;
  const child = spawn('node', ['--import', 'tsx', 'server/src/main.ts'], {
    cwd: resolve(import.meta.dirname, '../..'),
    env: {
      ...inherited,
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      JWT_SECRET: TEST_JWT_SECRET,
      ADMIN_PASSWORD: 'Admin#Secret123',
      SAMPLE_SITES: 'false',
      LOG_LEVEL: 'warn',
      LOG_FORMAT: 'json',
      RATE_LIMIT_ALLOWLIST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.on('exit', (code, signal) => done({ code, signal })),
  );
  const url = `http://127.0.0.1:${port}`;
  let ended = false;
  void exited.then(() => (ended = true));
  const deadline = Date.now() + withinMs;
  for (;;) {
    if (ended) throw new Error(`the portal ended before it answered:\n${output}`);
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`the portal did not answer within ${withinMs} ms:\n${output}`);
    }
    const health = await fetch(`${url}/api/v2/utilities/health-check`).catch(() => null);
    if (health?.status === 200) break;
    await new Promise((wait) => setTimeout(wait, 100));
  }
  return { url, pid: child.pid!, exited, output: () => output, kill: (signal) => child.kill(signal) };
}

/** Calls the portal's API over HTTP, as `call` does in process; an answer that is not JSON has a null body. */
export async function callOver<T = unknown>(
  url: string,
  method: string,
  path: string,
  options: { body?: unknown; token?: string; signal?: AbortSignal } = {},
): Promise<{ status: number; body: { result?: T; errors: string[] } | null; headers: Headers }> {
  const response = await fetch(`${url}/api/v2/${path}`, {
    method,
    headers: {
      ...(options.body !== undefined && { 'content-type': 'application/json' }),
      ...(options.token && { authorization: `Bearer ${options.token}` }),
    },
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
    signal: options.signal,
  });
  const text = await response.text();
  try {
    return { status: response.status, body: JSON.parse(text) as { result?: T; errors: string[] }, headers: response.headers };
  } catch {
    return { status: response.status, body: null, headers: response.headers };
  }
}
