import type { UserColumn, UserListQuery } from '@users-admin/contract';
import { type RefObject, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { Selection } from '../model/selection.ts';
import type { ExportState } from './export-state.ts';
import { ExportStatus } from './export-status.tsx';
import { startExport } from './start-export.ts';

/** What an export writes: the page's view, or its selection, with the columns shown. */
export interface ExportView {
  orgId: string | undefined;
  query: UserListQuery;
  selection: Selection;
  /** The optional columns shown. */
  columns: readonly UserColumn[];
}

interface ExportRunnerProps extends ExportView {
  /** How many times Export was pressed: each new press starts an export, unless one runs. */
  requests: number;
  button: RefObject<HTMLButtonElement | null>;
}

/** Runs the exports the Export button asks for and shows each one's progress and end. */
export function ExportRunner({ orgId, query, selection, columns, requests, button }: ExportRunnerProps) {
  const { t } = useTranslation();
  const [state, setState] = useState<ExportState>({ phase: 'idle' });
  const controller = useRef<AbortController | undefined>(undefined);
  const handled = useRef(0);
  const running = state.phase === 'running';

  useEffect(() => {
    if (requests === handled.current) return;
    handled.current = requests;
    if (running || !orgId) return;
    const current = new AbortController();
    controller.current = current;
    startExport({ orgId, query, selection, columns, t }, current.signal, setState);
  }, [requests, running, orgId, query, selection, columns, t]);
  // Cancel goes away with the progress: focus comes back to Export rather than to the page's start.
  useEffect(() => {
    if (!running && document.activeElement === document.body) button.current?.focus();
  }, [running, button]);

  return (
    <ExportStatus
      state={state}
      onCancel={() => controller.current?.abort()}
      onClose={() => setState({ phase: 'idle' })}
    />
  );
}
