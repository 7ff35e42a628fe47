import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { describeResult, runLoadTest } from '../bench/load-test.ts';
import { createScratchDatabase } from './support/test-server.ts';

/**
 * The load test of `npm run bench:load`, held for 3 s instead of 60: 8 clients, a mix of request
 * shapes on an organisation of 5,000 users (20,000 in the benchmark), zero errors and zero 5xx, memory flat.
 */
describe('the users list under load', () => {
  const dataDir = mkdtempSync(path.join(os.tmpdir(), 'users-admin-load-'));
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    await drop?.();
    rmSync(dataDir, { recursive: true, force: true });
  });

  it('answers every request of 8 clients for 3 s with 2xx, and the server memory stays flat', async () => {
    const scratch = process.env.TEST_DATABASE_URL
      ? await createScratchDatabase(process.env.TEST_DATABASE_URL)
      : undefined;
    drop = scratch?.drop;
    const result = await runLoadTest({
      durationSeconds: 3,
      warmupSeconds: 1,
      users: 5_000,
      dataDir,
      databaseUrl: scratch?.url,
    });
    console.log(describeResult(result));
    expect(result.violations).toEqual([]);
    expect(result.requests).toBeGreaterThan(0);
    expect(result.serverErrors).toBe(0);
    expect(result.non2xx).toBe(0);
    expect(result.errors + result.timeouts).toBe(0);
  }, 180_000);
});
