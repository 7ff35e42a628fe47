import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { freePort } from './test-server.ts';

const repositoryRoot = path.resolve(import.meta.dirname, '../../../..');

export interface ServerProcess {
  child: ChildProcess;
  baseUrl: string;
  /** Everything the process wrote to stdout so far. */
  stdout(): string;
  /** Everything it wrote to stderr so far. */
  stderr(): string;
  /** Resolves with the exit code (or the signal) once the process has ended. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/**
 * The real server as `npm start` runs it (apps/server/src/server.ts) in its own process, on a free
 * loopback port, resolved once it says it is ready. The caller ends it (SIGTERM or SIGKILL).
 */
export async function spawnServer(env: Record<string, string>, readyTimeoutMs = 60_000): Promise<ServerProcess> {
  const port = await freePort();
  return spawnNode(
    ['apps/server/src/server.ts'],
    { HOST: '127.0.0.1', PORT: String(port), ...env },
    {
      baseUrl: `http://127.0.0.1:${port}`,
      readyText: 'is ready at',
      readyTimeoutMs,
    },
  );
}

/** A TypeScript entry point of the repository run with tsx in its own process (the seed command, the server). */
export async function spawnNode(
  args: string[],
  env: Record<string, string>,
  options: { baseUrl?: string; readyText?: string; readyTimeoutMs?: number } = {},
): Promise<ServerProcess> {
  let stdout = '';
  let stderr = '';
  const child = spawn(process.execPath, ['--import', 'tsx', ...args], {
    cwd: repositoryRoot,
    env: { ...process.env, LOG_LEVEL: 'warn', SEED_DEMO: 'true', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  const handle: ServerProcess = {
    child,
    baseUrl: options.baseUrl ?? '',
    stdout: () => stdout,
    stderr: () => stderr,
    exited,
  };
  const { readyText } = options;
  if (!readyText) return handle;
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready in ${options.readyTimeoutMs} ms:\n${stdout}\n${stderr}`));
    }, options.readyTimeoutMs ?? 60_000);
    const check = () => {
      if (stdout.includes(readyText)) {
        clearTimeout(timer);
        resolve();
      }
    };
    child.stdout?.on('data', check);
    void exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`exited (${code ?? signal}) before it was ready:\n${stdout}\n${stderr}`));
    });
  });
  return handle;
}

/** Ends a process that a test left running (SIGKILL), and waits for it. */
export async function killProcess(server: ServerProcess | undefined): Promise<void> {
  if (!server || server.child.exitCode !== null || server.child.signalCode !== null) return;
  server.child.kill('SIGKILL');
  await server.exited;
}
