import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { ExportStatus } from './export-status.tsx';

describe("an export's status", () => {
  it('counts the rows read against the total, with a Cancel that cancels', async () => {
    const onCancel = vi.fn();
    render(
      <ExportStatus
        state={{ phase: 'running', done: 120_000, total: 512_345 }}
        onCancel={onCancel}
        onClose={vi.fn()}
      />,
    );
    const progress = screen.getByRole('group', { name: 'Export progress' });
    expect(progress).toHaveTextContent('Exporting 120,000 of 512,345 users…');
    const bar = screen.getByRole('progressbar', { name: 'Export progress' });
    expect(Number(bar.getAttribute('aria-valuenow'))).toBeCloseTo(23, 0);
    await userEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('says how it ended: the file, a cancel, or a failure', () => {
    const { rerender } = render(
      <ExportStatus state={{ phase: 'done', rows: 1, name: 'users-acme.csv' }} onCancel={vi.fn()} onClose={vi.fn()} />,
    );
    expect(screen.getByRole('status')).toHaveTextContent('Exported 1 user to users-acme.csv.');
    rerender(<ExportStatus state={{ phase: 'cancelled' }} onCancel={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByRole('status')).toHaveTextContent('The export was cancelled.');
    rerender(<ExportStatus state={{ phase: 'failed' }} onCancel={vi.fn()} onClose={vi.fn()} />);
    expect(screen.getByRole('alert')).toHaveTextContent('The export failed. Please try again.');
  });
});
