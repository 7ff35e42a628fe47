import { Agent, request } from 'node:http';
import type { UserListQuery } from '@users-admin/contract';

export interface Spread {
  p50: number;
  p99: number;
  max: number;
}

export const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)] ?? Number.NaN;
};

export const spread = (values: number[]): Spread => ({
  p50: percentile(values, 50),
  p99: percentile(values, 99),
  max: Math.max(...values),
});

export const ms = (value: number) => value.toFixed(1);

/** One request at a time: the benchmark's sequential measures share this connection. */
export const sequential = new Agent({ keepAlive: true, maxSockets: 1 });

/** A keep-alive GET with node:http, lighter than fetch, so that less of the client is measured. */
export function get(
  url: string,
  cookie: string,
  agent: Agent = sequential,
): Promise<{ status: number; body: string; ms: number }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    request(url, { agent, headers: { cookie } }, (response) => {
      let body = '';
      response.setEncoding('utf8');
      response.on('data', (chunk: string) => {
        body += chunk;
      });
      response.on('end', () => resolve({ status: response.statusCode ?? 0, body, ms: performance.now() - started }));
    })
      .on('error', reject)
      .end();
  });
}

/** What each step of an engine's run needs: how to ask the API, and where a missed budget goes. */
export interface Run {
  engine: 'pglite' | 'postgres';
  cookie: string;
  url(query: UserListQuery): string;
  check(ok: boolean, message: string): void;
}
