import { type ReactNode, Suspense, useEffect, useLayoutEffect, useState } from 'react';
import { SERVER_RENDERED_ATTRIBUTE } from './server-rendered.ts';

// The drawn page stays inert until every part of it is taken over: a part the server drew but the
// page has not hydrated yet would take the focus without showing it, and ignore a key.
const waiting = new Set<symbol>();
let outerTakenOver = false;

function release() {
  if (!outerTakenOver || waiting.size > 0) return;
  const root = document.getElementById('root');
  root?.removeAttribute('inert');
  root?.removeAttribute(SERVER_RENDERED_ATTRIBUTE);
}

/** The page's outermost part: once it is taken over, and each `HydrationPart` too, the page works. */
export function TakeOver({ children }: { children: ReactNode }) {
  useEffect(() => {
    outerTakenOver = true;
    release();
  }, []);
  return children;
}

function TakenOver({ id }: { id: symbol }) {
  useEffect(() => {
    waiting.delete(id);
    release();
  }, [id]);
  return null;
}

/**
 * A part the page hydrates in a boundary of its own, in short slices at low priority rather than
 * with the rest in one long task; the page is not released before it is taken over. A part whose
 * code loads lazily counts once it has loaded (or been given up on), so no press on it is lost.
 */
export function HydrationPart({ children, fallback = null }: { children: ReactNode; fallback?: ReactNode }) {
  const [id] = useState(() => Symbol('part'));
  // A layout effect: it runs when the outer part commits, before the boundary's own effects.
  useLayoutEffect(() => {
    waiting.add(id);
    return () => {
      waiting.delete(id);
    };
  }, [id]);
  return (
    <Suspense fallback={fallback}>
      <TakenOver id={id} />
      {children}
    </Suspense>
  );
}
