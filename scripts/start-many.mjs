// `npm run start:check`: starts the server on a fresh embedded database again and again, and checks
// that each start listens within the deadline. Not in `npm test`: it takes minutes.
//   node scripts/start-many.mjs [--runs 30] [--deadline 30] [--keep]
// A start that misses the deadline keeps its data folder, its log and a diagnostic report of the
// process (its stacks and open handles, asked for by SIGUSR2); --keep keeps every one.
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';

const root = path.resolve(import.meta.dirname, '..');
const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '30' },
    deadline: { type: 'string', default: '30' },
    keep: { type: 'boolean', default: false },
  },
});
const runs = Number(values.runs);
const deadlineMs = Number(values.deadline) * 1000;
const READY = /Users admin is ready at/;

if (!existsSync(path.join(root, 'apps/web/dist/index.html'))) {
  console.error('The page is not built: run `npm run build` once first.');
  process.exit(1);
}

/** A port free on the loopback now, from the system. */
function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address();
      server.close(() => resolve(port));
    });
  });
}

/**
 * CPU seconds the process has used (all its threads; Linux), which the machine's other work does
 * not inflate as it does the wall time: undefined elsewhere.
 */
function cpuSeconds(pid) {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return undefined;
  }
}

/** Waits for the process to end, or for `ms`; true when it ended. */
function exited(child, ms) {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve(true);
  return new Promise((resolve) => {
    const timer = setTimeout(() => resolve(false), ms);
    child.once('exit', () => {
      clearTimeout(timer);
      resolve(true);
    });
  });
}

/** One start on a fresh data folder: how long until it said it is ready, or why it did not. */
async function startOnce() {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-start-'));
  const logFile = path.join(dir, 'server.log');
  const log = openSync(logFile, 'w');
  // The server's own deadline is the check's: a start that misses it says the stage it stopped in.
  const env = {
    ...process.env,
    DATA_DIR: path.join(dir, 'data'),
    HOST: '127.0.0.1',
    PORT: String(await freePort()),
    STARTUP_TIMEOUT: String(deadlineMs / 1000),
  };
  const started = performance.now();
  const report = ['--report-on-signal', '--report-signal=SIGUSR2', `--report-directory=${dir}`];
  const child = spawn(process.execPath, [...report, '--import', 'tsx', 'apps/server/src/server.ts'], {
    cwd: root,
    env,
    stdio: ['ignore', 'pipe', log],
  });
  let output = '';
  const outcome = await new Promise((resolve) => {
    // A server that does not keep its own deadline is waited for a little longer, then asked for a report.
    const timer = setTimeout(() => resolve({ ok: false, why: 'still not ready, nor exited' }), deadlineMs + 15_000);
    child.stdout.on('data', (chunk) => {
      output += chunk;
      if (READY.test(output)) {
        clearTimeout(timer);
        const ms = performance.now() - started;
        const cpu = cpuSeconds(child.pid);
        resolve(
          ms <= deadlineMs ? { ok: true, ms, cpu } : { ok: false, why: `ready only after ${(ms / 1000).toFixed(1)} s` },
        );
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ ok: false, why: `exited (${signal ?? `code ${code}`}) before it was ready` });
    });
  });
  if (!outcome.ok && child.exitCode === null) {
    child.kill('SIGUSR2');
    await exited(child, 2_000);
  }
  child.kill('SIGTERM');
  if (!(await exited(child, 10_000))) {
    child.kill('SIGKILL');
    await exited(child, 5_000);
  }
  const stderr = readFileSync(logFile, 'utf8');
  if (outcome.ok && !values.keep) rmSync(dir, { recursive: true, force: true });
  return { ...outcome, dir, tail: `${output}${stderr}`.trim().split('\n').slice(-6).join('\n') };
}

const times = [];
const cpuTimes = [];
const failures = [];
for (let run = 1; run <= runs; run++) {
  const result = await startOnce();
  const label = `start ${String(run).padStart(String(runs).length)}/${runs}`;
  if (result.ok) {
    times.push(result.ms);
    if (result.cpu !== undefined) cpuTimes.push(result.cpu * 1000);
    const cpu = result.cpu === undefined ? '' : ` (CPU ${result.cpu.toFixed(2)} s)`;
    console.log(`${label}: ready in ${(result.ms / 1000).toFixed(2)} s${cpu}`);
  } else {
    failures.push(result);
    console.log(
      `${label}: FAILED, ${result.why} (log and data: ${result.dir})\n    ${result.tail.replace(/\n/g, '\n    ')}`,
    );
  }
}

/** min, median, p90 and max of durations in ms. */
function summary(durations) {
  const sorted = [...durations].sort((a, b) => a - b);
  const at = (q) => sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
  const s = (ms) => `${(ms / 1000).toFixed(2)} s`;
  return `min ${s(at(0))}, median ${s(at(0.5))}, p90 ${s(at(0.9))}, max ${s(at(1))}`;
}

console.log(`\n${times.length}/${runs} starts ready within ${deadlineMs / 1000} s; ${failures.length} failed`);
if (times.length > 0) console.log(`ready in: ${summary(times)}`);
if (cpuTimes.length > 0) console.log(`CPU used: ${summary(cpuTimes)}`);
process.exit(failures.length > 0 ? 1 : 0);
