import { render, screen } from '@testing-library/react';
import { Suspense } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { lazyPart } from './lazy-part.ts';

afterEach(() => {
  vi.restoreAllMocks();
});

describe('a lazily loaded part of the page', () => {
  it('is drawn once its code has arrived', async () => {
    const Part = lazyPart(async () => ({ label }: { label: string }) => <p>{label}</p>);
    render(
      <Suspense fallback={null}>
        <Part label="the footer" />
      </Suspense>,
    );
    expect(await screen.findByText('the footer')).toBeInTheDocument();
  });

  it('is left out, and the rest of the page stays, when its code cannot be loaded', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const failure = new TypeError('Failed to fetch dynamically imported module');
    const Part = lazyPart<{ label: string }>(() => Promise.reject(failure));
    render(
      <main>
        <p>the rows</p>
        <Suspense fallback={<p>loading</p>}>
          <Part label="the footer" />
        </Suspense>
      </main>,
    );
    await vi.waitFor(() => expect(screen.queryByText('loading')).toBeNull());
    expect(screen.getByText('the rows')).toBeInTheDocument();
    expect(screen.queryByText('the footer')).toBeNull();
    expect(logged).toHaveBeenCalledWith(expect.stringContaining('could not be loaded'), failure);
  });

  it('is drawn at once, without suspending, once preloaded (the footer, asked for beside the first calls)', async () => {
    let loads = 0;
    const Part = lazyPart(async () => {
      loads += 1;
      return ({ label }: { label: string }) => <p>{label}</p>;
    });
    await Part.preload();
    await Part.preload();
    render(
      <Suspense fallback={<p>loading</p>}>
        <Part label="the footer" />
      </Suspense>,
    );
    // In the first commit: no fallback in between.
    expect(screen.getByText('the footer')).toBeInTheDocument();
    expect(screen.queryByText('loading')).toBeNull();
    expect(loads).toBe(1);
  });

  it('loads once, whether drawn or preloaded first', async () => {
    let loads = 0;
    const Part = lazyPart(async () => {
      loads += 1;
      return () => <p>the menu</p>;
    });
    render(
      <Suspense fallback={null}>
        <Part />
      </Suspense>,
    );
    await Part.preload();
    expect(await screen.findByText('the menu')).toBeInTheDocument();
    expect(loads).toBe(1);
  });
});
