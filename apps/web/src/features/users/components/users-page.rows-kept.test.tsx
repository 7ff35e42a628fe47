import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ComponentProps, createElement, memo } from 'react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../../testing/render.tsx';
import { usersDocument } from '../../../testing/users-fixtures.ts';
import { UsersPage } from './users-page.tsx';

// Counts how often the rows are drawn: the real row, behind a memo that compares the same props.
const drawn = vi.hoisted(() => ({ rows: 0 }));
vi.mock('./user-row.tsx', async (importOriginal) => {
  const actual = await importOriginal<typeof import('./user-row.tsx')>();
  const CountedRow = memo(function CountedRow(props: ComponentProps<typeof actual.UserRow>) {
    drawn.rows++;
    return createElement(actual.UserRow, props);
  });
  return { ...actual, UserRow: CountedRow };
});
vi.mock('../../../lib/auth/silent-sign-in.ts', () => ({ silentSignIn: vi.fn(async () => true) }));

const ORG = '7c9e6679-7425-40de-944b-e07fc1f90ae7';
let releaseSecondPage: () => void = () => undefined;

beforeEach(() => {
  drawn.rows = 0;
  vi.stubGlobal(
    'fetch',
    vi.fn(async (input: string) => {
      const url = new URL(input, 'http://localhost');
      if (url.searchParams.get('page[number]') === '2') {
        await new Promise<void>((resolve) => {
          releaseSecondPage = resolve;
        });
      }
      return new Response(JSON.stringify(usersDocument(url, 60)), {
        status: 200,
        headers: { 'content-type': 'application/vnd.api+json' },
      });
    }),
  );
});
afterEach(() => {
  releaseSecondPage();
  vi.unstubAllGlobals();
});

describe('changing page', () => {
  it('keeps the shown rows without drawing them again while the next page loads', async () => {
    renderWithProviders(
      <UsersPage orgId={ORG} homeUrl="https://home.example/" launchpadUrl="https://launch.example/" />,
    );
    await screen.findByRole('rowheader', { name: /User 001/ });
    await screen.findByRole('button', { name: 'Go to next page' });
    const drawnForFirstPage = drawn.rows;
    expect(drawnForFirstPage).toBeGreaterThanOrEqual(25);

    await userEvent.click(screen.getByRole('button', { name: 'Go to next page' }));
    // The next page is asked for and the page says it is loading, over the same 25 rows.
    await waitFor(() => expect(screen.getByRole('main').querySelector('[aria-busy="true"]')).not.toBeNull());
    expect(screen.getByRole('rowheader', { name: /User 001/ })).toBeInTheDocument();
    expect(drawn.rows).toBe(drawnForFirstPage);

    releaseSecondPage();
    await screen.findByRole('rowheader', { name: /User 026/ });
    expect(drawn.rows).toBeGreaterThanOrEqual(drawnForFirstPage + 25);
  });
});
