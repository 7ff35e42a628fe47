import type TooltipType from '@mui/material/Tooltip';
import { type ReactElement, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { retryingImport } from '../lib/retry/retry.ts';

type TooltipComponent = typeof TooltipType;

/*
 * MUI's Tooltip brings Popper and @popperjs/core (~11 KB gzip) that the first render does not need:
 * the tooltips load when the browser is idle, or at the first hover or focus of one, whichever
 * comes first. Until then the trigger renders alone.
 */
let loaded: TooltipComponent | undefined;
let loading: Promise<void> | undefined;
const subscribers = new Set<() => void>();

const importTooltip = retryingImport(() => import('@mui/material/Tooltip'));

export function loadTooltip(): Promise<void> {
  loading ??= importTooltip().then(
    (module) => {
      loaded = module.default;
      for (const notify of subscribers) notify();
    },
    (error: unknown) => {
      // Every retry failed: the triggers keep working without tooltips, and the next hover tries again.
      loading = undefined;
      console.warn('The tooltips could not be loaded', error);
    },
  );
  return loading;
}

function subscribe(notify: () => void): () => void {
  subscribers.add(notify);
  return () => {
    subscribers.delete(notify);
  };
}

let idleScheduled = false;
function loadWhenIdle() {
  if (idleScheduled) return;
  idleScheduled = true;
  const start = () => void loadTooltip();
  if ('requestIdleCallback' in window) window.requestIdleCallback(start, { timeout: 2000 });
  else setTimeout(start, 200);
}

interface LazyTooltipProps {
  title: string;
  /** The title describes the child (aria-describedby) instead of naming it (aria-label). */
  describeChild?: boolean;
  children: ReactElement;
}

export function LazyTooltip({ title, describeChild = false, children }: LazyTooltipProps) {
  const [Tooltip, setTooltip] = useState(() => loaded);
  const host = useRef<HTMLSpanElement>(null);
  // Where the pointer and focus were while the trigger stood alone, so the swap loses neither.
  const hovered = useRef(false);
  const hadFocus = useRef(false);
  const [open, setOpen] = useState(false);

  useEffect(() => {
    loadWhenIdle();
    const unsubscribe = subscribe(() => {
      hadFocus.current = host.current?.contains(document.activeElement) ?? false;
      setTooltip(() => loaded);
    });
    // Loaded between this render and this effect: no notification will come.
    if (loaded) setTooltip(() => loaded);
    return unsubscribe;
  }, []);

  // Listened to natively: the wrapper only watches what happens to the trigger inside it.
  useEffect(() => {
    const node = host.current;
    if (!node) return;
    const listeners = {
      pointerover: () => {
        hovered.current = true;
        void loadTooltip();
      },
      pointerout: (event: Event) => {
        if (!node.contains((event as PointerEvent).relatedTarget as Node | null)) hovered.current = false;
      },
      focusin: () => void loadTooltip(),
    };
    for (const [type, listener] of Object.entries(listeners)) node.addEventListener(type, listener);
    return () => {
      for (const [type, listener] of Object.entries(listeners)) node.removeEventListener(type, listener);
    };
  }, []);

  // Putting the Tooltip around the trigger mounts the trigger anew: give focus back, and show the
  // tooltip if the user was already pointing at or focused on it.
  useLayoutEffect(() => {
    if (!Tooltip) return;
    if (hadFocus.current) host.current?.querySelector<HTMLElement>('button, [href], input, [tabindex]')?.focus();
    if (hovered.current || hadFocus.current) setOpen(true);
  }, [Tooltip]);

  return (
    <span ref={host} style={{ display: 'contents' }}>
      {Tooltip ? (
        <Tooltip
          title={title}
          describeChild={describeChild}
          open={open}
          onOpen={() => setOpen(true)}
          onClose={() => setOpen(false)}
        >
          {children}
        </Tooltip>
      ) : (
        children
      )}
    </span>
  );
}
