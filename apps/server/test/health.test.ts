import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestServer, type TestServer } from './support/test-server.ts';

describe('health probes for orchestrators', () => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer();
  });
  afterAll(() => server.close());

  const probe = (path: string) => fetch(`${server.baseUrl}${path}`, { headers: { accept: 'text/html,*/*' } });

  it('/healthz says the process is up, as JSON, even to a browser (not the page)', async () => {
    const response = await probe('/healthz');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(await response.json()).toEqual({ status: 'ok' });
  });

  it('/readyz says the database answers', async () => {
    const response = await probe('/readyz');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toContain('application/json');
    expect(await response.json()).toEqual({ status: 'ok', database: 'ok' });
  });

  it('the page does not answer for the probes: a path under them is not found', async () => {
    const response = await probe('/readyz/extra');
    expect(response.status).toBe(404);
    expect(response.headers.get('content-type')).not.toContain('text/html');
  });

  // Last: it closes the database under the running server.
  it('with the database closed, /readyz answers 503 and /healthz still 200', async () => {
    await server.database.close();
    const ready = await probe('/readyz');
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: 'unavailable', database: 'unreachable' });
    expect((await probe('/healthz')).status).toBe(200);
  });
});
