// @vitest-environment node
import i18n from 'i18next';
import { describe, expect, it, vi } from 'vitest';
import type { HttpClient } from '../../../lib/http/http-client.ts';
import { EMPTY_SELECTION } from '../model/selection.ts';
import { runExport } from './run-export.ts';

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';

/** A client whose export answer streams `chunks` with the server's headers. */
function clientStreaming(chunks: string[], headers: Record<string, string>, status = 200) {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(new TextEncoder().encode(chunk));
      controller.close();
    },
  });
  const send = vi.fn(async () => new Response(body, { status, headers }));
  return { client: { get: vi.fn(), send } as HttpClient, send };
}

const options = (client: HttpClient, onProgress = vi.fn()) => ({
  orgId: ORG,
  query: { pageNumber: 2, pageSize: 25, status: 'active' as const },
  selection: EMPTY_SELECTION,
  columns: ['status' as const],
  t: i18n.t.bind(i18n),
  signal: new AbortController().signal,
  onProgress,
  client,
});

describe('running an export', () => {
  it("POSTs the view, reads the stream, counts its rows against the server's count and names the file as told", async () => {
    const csv = [
      '\uFEFFName,Email,Status\r\nAda,ada@x,Active\r\n"Bob\r\nB',
      'uilder",bob@x,Active\r\n',
      "'=cmd,c@x,Active\r\n",
    ];
    const { client, send } = clientStreaming(csv, {
      'content-type': 'text/csv; charset=utf-8',
      'content-disposition': 'attachment; filename="users-acme-2026-11-26.csv"',
      'x-total-count': '3',
    });
    const onProgress = vi.fn();
    const file = await runExport(options(client, onProgress));

    const [url, init] = send.mock.calls[0] as unknown as [string, RequestInit];
    expect(url).toBe(`/apis/accounts/api/v3/orgs/${ORG}/users/export?filter%5Bstatus%5D=active`);
    expect(init.method).toBe('POST');
    expect(JSON.parse(init.body as string).columns.map((c: { key: string }) => c.key)).toEqual([
      'name',
      'email',
      'status',
    ]);
    expect(file).toMatchObject({ name: 'users-acme-2026-11-26.csv', rows: 3 });
    expect(onProgress).toHaveBeenCalledWith(0, 3);
    expect(onProgress).toHaveBeenLastCalledWith(3, 3);
    // The bytes are kept as they came, byte order mark included.
    expect(new Uint8Array(await file.blob.arrayBuffer()).slice(0, 3)).toEqual(new Uint8Array([0xef, 0xbb, 0xbf]));
  });

  it('fails when the answer ends before the rows the server announced', async () => {
    const { client } = clientStreaming(['Name,Email,Status\nAda,ada@x,Active\n'], { 'x-total-count': '2' });
    await expect(runExport(options(client))).rejects.toThrow('ended after 1 of 2 users');
  });

  it('fails on an answer that is not OK', async () => {
    const { client } = clientStreaming(['{}'], { 'content-type': 'application/json' }, 500);
    await expect(runExport(options(client))).rejects.toMatchObject({ status: 500 });
  });
});
