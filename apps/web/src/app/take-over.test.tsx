import { act, type ComponentType, lazy, Suspense } from 'react';
import { createRoot } from 'react-dom/client';
import { afterEach, describe, expect, it } from 'vitest';
import { SERVER_RENDERED_ATTRIBUTE } from './server-rendered.ts';
import { HydrationPart, TakeOver } from './take-over.tsx';

afterEach(() => {
  document.body.innerHTML = '';
});

describe('the drawn page taken over', () => {
  it('stays inert until every part has been taken over, then works', async () => {
    document.body.innerHTML = `<div id="root" inert ${SERVER_RENDERED_ATTRIBUTE}></div>`;
    const root = document.getElementById('root') as HTMLElement;
    let arrive: () => void = () => {};
    const Late = lazy(
      () =>
        new Promise<{ default: ComponentType }>((resolve) => {
          arrive = () => resolve({ default: () => <button type="button">Late</button> });
        }),
    );
    const reactRoot = createRoot(root);
    await act(async () => {
      reactRoot.render(
        <TakeOver>
          <HydrationPart>
            <button type="button">Early</button>
          </HydrationPart>
          <HydrationPart>
            <Suspense fallback={null}>
              <Late />
            </Suspense>
          </HydrationPart>
          <HydrationPart>
            <Late />
          </HydrationPart>
        </TakeOver>,
      );
    });
    expect(root.hasAttribute('inert')).toBe(true);
    await act(async () => arrive());
    expect(root.hasAttribute('inert')).toBe(false);
    expect(root.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
    act(() => reactRoot.unmount());
  });
});
