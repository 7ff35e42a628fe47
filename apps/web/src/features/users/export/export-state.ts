/** Where an export is: the Export button keeps it, the lazily loaded status shows it. */
export type ExportState =
  | { phase: 'idle' }
  /** `total` is undefined until the server has answered with its count. */
  | { phase: 'running'; done: number; total: number | undefined }
  | { phase: 'done'; rows: number; name: string }
  | { phase: 'cancelled' }
  | { phase: 'failed' };
