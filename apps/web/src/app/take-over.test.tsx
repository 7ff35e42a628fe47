import { act, type ComponentType, lazy, type ReactNode } from 'react';
import { createRoot, hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { DRAWN_PART_ATTRIBUTE, SERVER_RENDERED_ATTRIBUTE } from './server-rendered.ts';
import { HydrationPart, TakeOver } from './take-over.tsx';

// React's act() without Testing Library's render, which would say so for us.
beforeAll(() => {
  (globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;
});
afterEach(() => {
  vi.unstubAllGlobals();
  document.body.innerHTML = '';
});

const inertParts = (root: HTMLElement) =>
  [...root.querySelectorAll(`[${DRAWN_PART_ATTRIBUTE}]`)].map((part) => part.hasAttribute('inert'));
const buttons = (root: HTMLElement) => [...root.querySelectorAll('button')].map((button) => button.textContent);

const Empty = () => null;
const page = (Late: ComponentType, Later: ComponentType = Empty) => (
  <TakeOver>
    <HydrationPart>
      <button type="button">Early</button>
      <HydrationPart>
        <Later />
      </HydrationPart>
    </HydrationPart>
    <HydrationPart>
      <Late />
    </HydrationPart>
  </TakeOver>
);

/** The page as the server draws it (entry-server.tsx): the server has every part's code. */
function drawn(tree: ReactNode): HTMLElement {
  vi.stubGlobal('document', undefined);
  const html = renderToString(tree);
  vi.unstubAllGlobals();
  document.body.innerHTML = `<div id="root" inert ${SERVER_RENDERED_ATTRIBUTE}>${html}</div>`;
  return document.getElementById('root') as HTMLElement;
}

/** The page's code takes the drawn page over, as main.tsx does. */
const takeOver = (root: HTMLElement, tree: ReactNode) => act(async () => hydrateRoot(root, tree));

/** A part whose code the browser has not loaded yet, and the function that brings it. */
function lateCode(label = 'Late'): [ComponentType, () => void] {
  let arrive: () => void = () => {};
  const Late = lazy(
    () =>
      new Promise<{ default: ComponentType }>((resolve) => {
        arrive = () => resolve({ default: () => <button type="button">{label}</button> });
      }),
  );
  return [Late, () => arrive()];
}

describe('the drawn page taken over', () => {
  it('keeps each drawn part inert until it is taken over, a part whose code is late until it comes', async () => {
    const root = drawn(page(() => <button type="button">Late</button>));
    expect(inertParts(root)).toEqual([true, true, true]);
    const [Late, arrive] = lateCode();
    const reactRoot = await takeOver(root, page(Late));
    expect(root.hasAttribute('inert')).toBe(false);
    expect(root.hasAttribute(SERVER_RENDERED_ATTRIBUTE)).toBe(false);
    // The first part and the one within it are the page's; the last waits for its code.
    expect(inertParts(root)).toEqual([false, false, true]);
    await act(async () => arrive());
    expect(inertParts(root)).toEqual([false, false, false]);
    expect(buttons(root)).toEqual(['Early', 'Late']);
    act(() => reactRoot.unmount());
  });

  it('releases a part before the parts within it are taken over', async () => {
    const root = drawn(page(Empty, () => <button type="button">Later</button>));
    const [Later, arrive] = lateCode('Later');
    const reactRoot = await takeOver(root, page(Empty, Later));
    expect(inertParts(root)).toEqual([false, true, false]);
    await act(async () => arrive());
    expect(inertParts(root)).toEqual([false, false, false]);
    expect(buttons(root)).toEqual(['Early', 'Later']);
    act(() => reactRoot.unmount());
  });

  it('draws nothing inert on a page the server did not draw', async () => {
    document.body.innerHTML = '<div id="root"></div>';
    const root = document.getElementById('root') as HTMLElement;
    const reactRoot = createRoot(root);
    const [Late, arrive] = lateCode();
    await act(async () => reactRoot.render(page(Late)));
    await act(async () => arrive());
    expect(inertParts(root)).toEqual([false, false, false]);
    act(() => reactRoot.unmount());
  });
});
