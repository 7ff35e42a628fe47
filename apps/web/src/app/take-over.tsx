import { type ReactNode, Suspense, useEffect, useId, useState } from 'react';
import { DRAWN_PART_ATTRIBUTE, SERVER_RENDERED_ATTRIBUTE } from './server-rendered.ts';

/**
 * Whether the part of this id takes over a part the server drew and has not released yet: on the
 * server (no document there), or in the browser when its drawn wrapper is there, inert.
 */
const takesOverDrawnPart = (id: string) =>
  typeof document === 'undefined' ||
  [...document.querySelectorAll(`[${DRAWN_PART_ATTRIBUTE}][inert]`)].some(
    (part) => part.getAttribute(DRAWN_PART_ATTRIBUTE) === id,
  );

/**
 * The page's outermost part: once it is taken over, the drawn page is released, but for each
 * `HydrationPart` not taken over yet, which stays inert on its own until it is.
 */
export function TakeOver({ children }: { children: ReactNode }) {
  useEffect(() => {
    const root = document.getElementById('root');
    root?.removeAttribute('inert');
    root?.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
  }, []);
  return children;
}

function TakenOver({ setInert }: { setInert: (inert: boolean) => void }) {
  useEffect(() => setInert(false), [setInert]);
  return null;
}

/**
 * A part the page hydrates in a boundary of its own, in short slices at low priority rather than
 * with the rest in one long task. Until it is taken over, a part the server drew is inert: it would
 * take the focus without showing it, and ignore a key. It works as soon as it is taken over, without
 * waiting for the others (issue 30); a part whose code loads lazily, once it has loaded or been given up on.
 */
export function HydrationPart({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  // The same id on the server and while hydrating (React's useId), and another on a part the page
  // draws itself later. Read once, as the part first renders.
  const id = useId();
  const [inert, setInert] = useState(() => takesOverDrawnPart(id));
  // A wrapper without a box of its own: the part lays out as if it were not there.
  return (
    <div data-drawn-part={id} inert={inert} style={{ display: 'contents' }}>
      <Suspense fallback={fallback}>
        <TakenOver setInert={setInert} />
        {children}
      </Suspense>
    </div>
  );
}
