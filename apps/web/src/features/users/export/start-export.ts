import type { ExportState } from './export-state.ts';
import { type ExportOptions, runExport, saveFile } from './run-export.ts';

export type StartExportOptions = Omit<ExportOptions, 'signal' | 'onProgress'>;

/**
 * Runs an export and tells each of its states, ending with the file saved, the export cancelled
 * (`signal` aborted, maybe before this started), or its failure.
 */
export function startExport(
  options: StartExportOptions,
  signal: AbortSignal,
  onState: (state: ExportState) => void,
): void {
  onState({ phase: 'running', done: 0, total: undefined });
  runExport({
    ...options,
    signal,
    onProgress: (done, total) => {
      if (!signal.aborted) onState({ phase: 'running', done, total });
    },
  }).then(
    (file) => {
      if (signal.aborted) return onState({ phase: 'cancelled' });
      saveFile(file);
      onState({ phase: 'done', rows: file.rows, name: file.name });
    },
    (error: unknown) => {
      if (signal.aborted) return onState({ phase: 'cancelled' });
      console.error('The export failed', error);
      onState({ phase: 'failed' });
    },
  );
}
