import { EXPORT_COUNT_HEADER, type UserColumn, type UserListQuery } from '@users-admin/contract';
import type { TFunction } from 'i18next';
import { type HttpClient, HttpError, httpClient } from '../../../lib/http/http-client.ts';
import type { Selection } from '../model/selection.ts';
import { fileNameOf } from './content-disposition.ts';
import { CsvRecordCounter } from './csv-records.ts';
import { exportRequest, exportUrl } from './export-request.ts';

/** Progress is told at most this often: each chunk would re-render the page for nothing. */
const PROGRESS_INTERVAL_MS = 100;

export interface ExportOptions {
  orgId: string;
  query: UserListQuery;
  selection: Selection;
  /** The optional columns shown. */
  columns: readonly UserColumn[];
  t: TFunction;
  signal: AbortSignal;
  /** Rows read so far, of `total` (the server's count; undefined if it gave none). */
  onProgress: (done: number, total: number | undefined) => void;
  client?: HttpClient;
}

export interface ExportedFile {
  blob: Blob;
  name: string;
  rows: number;
}

/** Today's date as the server writes it in the name, for an answer that gives none. */
const fallbackName = () => `users-${new Date().toISOString().slice(0, 10)}.csv`;

/**
 * Asks the server for the CSV of the view and reads it as it streams, counting its rows against the
 * count the server announced. Rejects when `signal` aborts, and when fewer rows came than announced.
 */
export async function runExport(options: ExportOptions): Promise<ExportedFile> {
  const { orgId, query, selection, columns, t, signal, onProgress, client = httpClient } = options;
  const url = exportUrl(orgId, query);
  const response = await client.send(url, {
    method: 'POST',
    credentials: 'include',
    headers: { 'Content-Type': 'application/json', Accept: 'text/csv' },
    body: JSON.stringify(exportRequest(columns, selection, t)),
    signal,
  });
  if (!response.ok || !response.body) throw new HttpError(response.status, url, null);

  const announced = Number.parseInt(response.headers.get(EXPORT_COUNT_HEADER) ?? '', 10);
  const total = Number.isFinite(announced) ? announced : undefined;
  const counter = new CsvRecordCounter();
  const chunks: Uint8Array<ArrayBuffer>[] = [];
  const reader = response.body.getReader();
  onProgress(0, total);
  let told = Date.now();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
    // The first record is the header row.
    const rows = Math.max(0, counter.push(value) - 1);
    if (Date.now() - told >= PROGRESS_INTERVAL_MS) {
      onProgress(rows, total);
      told = Date.now();
    }
  }
  const rows = Math.max(0, counter.finish() - 1);
  // The server ends the answer short when it fails half-way: a file missing rows is a failure.
  if (total !== undefined && rows !== total) throw new Error(`The export ended after ${rows} of ${total} users`);
  onProgress(rows, total);
  return {
    blob: new Blob(chunks, { type: 'text/csv;charset=utf-8' }),
    name: fileNameOf(response.headers.get('content-disposition')) ?? fallbackName(),
    rows,
  };
}

/** Saves the file as a download under its name, as a link with `download` does. */
export function saveFile({ blob, name }: ExportedFile): void {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  link.hidden = true;
  document.body.append(link);
  link.click();
  link.remove();
  // Some browsers read the object URL after the click has returned.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
