import IconButton from '@mui/material/IconButton';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { LazyTooltip } from './lazy-tooltip.tsx';

describe('LazyTooltip', () => {
  it('keeps keyboard focus on the trigger when the tooltip code arrives, and shows the tooltip', async () => {
    const user = userEvent.setup();
    render(
      <LazyTooltip title="Where the user is managed" describeChild>
        <IconButton aria-label="More about Data source">i</IconButton>
      </LazyTooltip>,
    );
    await user.tab();
    expect(screen.getByRole('button', { name: 'More about Data source' })).toHaveFocus();
    expect(await screen.findByRole('tooltip')).toHaveTextContent('Where the user is managed');
    await waitFor(() => expect(screen.getByRole('button', { name: 'More about Data source' })).toHaveFocus());
  });
});
