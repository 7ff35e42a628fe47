// The server of the load test, in a process of its own with the memory probe loaded, so that the
// memory it reports is the server's alone.
import { type ChildProcess, spawn } from 'node:child_process';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { freePort } from '../test/support/test-server.ts';

const root = path.resolve(import.meta.dirname, '../../..');

export interface ServerChild {
  child: ChildProcess;
  baseUrl: string;
  output: () => string;
  memory(collect: boolean): Promise<NodeJS.MemoryUsage>;
  stop(): Promise<number | null>;
}

/** The server in a process of its own, so its memory is its own, with the memory probe loaded. */
export async function startServerProcess(env: Record<string, string>): Promise<ServerChild> {
  const port = await freePort();
  const probe = pathToFileURL(path.join(import.meta.dirname, 'memory-probe.ts')).href;
  const child = spawn(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', '--import', probe, 'apps/server/src/server.ts'],
    {
      cwd: root,
      env: { ...process.env, HOST: '127.0.0.1', PORT: String(port), LOG_LEVEL: 'warn', SEED_DEMO: 'false', ...env },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  child.stderr?.on('data', (chunk: Buffer) => {
    output += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the server did not start in 120 s:\n${output}`)), 120_000);
    child.stdout?.on('data', () => {
      if (output.includes('is ready at')) {
        clearTimeout(timer);
        resolve();
      }
    });
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`the server exited with ${code}:\n${output}`));
    });
  });
  return {
    child,
    baseUrl: `http://127.0.0.1:${port}`,
    output: () => output,
    memory(collect) {
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => reject(new Error('no memory answer from the server')), 10_000);
        const onMessage = (message: { type?: string; memory?: NodeJS.MemoryUsage }) => {
          if (message?.type !== 'memory' || !message.memory) return;
          clearTimeout(timer);
          child.off('message', onMessage);
          resolve(message.memory);
        };
        child.on('message', onMessage);
        child.send({ type: 'memory', collect });
      });
    },
    async stop() {
      if (child.exitCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const code = await exited;
      clearTimeout(timer);
      return code;
    },
  };
}
