import type TooltipType from '@mui/material/Tooltip';
import { type ReactElement, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { retryingImport } from '../lib/retry/retry.ts';

type TooltipComponent = typeof TooltipType;

/*
 * MUI's Tooltip brings Popper and @popperjs/core, which the first render does not need:
 * its code loads when the browser is idle, or at the first hover or focus of one, whichever
 * comes first. A trigger renders alone until it is first pointed at or focused: wrapping every
 * trigger once the code arrived would mount them all anew at once, a long task for nothing.
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

/** MUI Tooltip's default `enterDelay`. */
const ENTER_DELAY_MS = 100;

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

// Long as one piece: the trigger's watchers and the swap share the refs of its pointer and focus.
export function LazyTooltip({ title, describeChild = false, children }: LazyTooltipProps) {
  const [Tooltip, setTooltip] = useState<TooltipComponent | undefined>(undefined);
  const host = useRef<HTMLSpanElement>(null);
  // Where the pointer and focus were while the trigger stood alone, so the swap loses neither.
  const hovered = useRef(false);
  const hadFocus = useRef(false);
  const [open, setOpen] = useState(false);
  // The swap's own opening, due after MUI's delay: void once MUI has opened or closed the tooltip itself.
  const swapOpening = useRef<ReturnType<typeof setTimeout>>(undefined);

  // Pointed at or focused once: from then on it has its tooltip, as soon as the code is there.
  const wanted = useRef(false);

  useEffect(() => {
    loadWhenIdle();
    return subscribe(() => {
      if (!wanted.current) return;
      hadFocus.current = host.current?.contains(document.activeElement) ?? false;
      setTooltip(() => loaded);
    });
  }, []);

  // Listened to natively: the wrapper only watches what happens to the trigger inside it.
  useEffect(() => {
    const node = host.current;
    if (!node) return;
    const want = () => {
      wanted.current = true;
      if (!loaded) return void loadTooltip();
      hadFocus.current = node.contains(document.activeElement);
      setTooltip(() => loaded);
    };
    const listeners = {
      pointerover: () => {
        hovered.current = true;
        want();
      },
      pointerout: (event: Event) => {
        if (!node.contains((event as PointerEvent).relatedTarget as Node | null)) hovered.current = false;
      },
      focusin: want,
    };
    for (const [type, listener] of Object.entries(listeners)) node.addEventListener(type, listener);
    // Focused or pointed at before this effect ran.
    hovered.current = node.querySelector(':hover') !== null;
    if (hovered.current || node.contains(document.activeElement)) want();
    return () => {
      for (const [type, listener] of Object.entries(listeners)) node.removeEventListener(type, listener);
    };
  }, []);

  // Putting the Tooltip around the trigger mounts the trigger anew: give focus back, and show the
  // tooltip if the user was already pointing at or focused on it.
  useLayoutEffect(() => {
    if (!Tooltip) return;
    // Unless the focus has gone on meanwhile: it is not taken back.
    const lost = document.activeElement === null || document.activeElement === document.body;
    if (hadFocus.current && lost)
      host.current?.querySelector<HTMLElement>('button, [href], input, [tabindex]')?.focus();
    // After MUI's own delay, and only if still pointed at or focused: tabbing past shows nothing.
    swapOpening.current = setTimeout(() => {
      if (hovered.current || host.current?.contains(document.activeElement)) setOpen(true);
    }, ENTER_DELAY_MS);
    return () => clearTimeout(swapOpening.current);
  }, [Tooltip]);

  // Escape pressed within the delay closes it for good: the swap's opening does not bring it back.
  const openWith = (next: boolean) => {
    clearTimeout(swapOpening.current);
    setOpen(next);
  };

  return (
    <span ref={host} style={{ display: 'contents' }}>
      {Tooltip ? (
        <Tooltip
          title={title}
          describeChild={describeChild}
          open={open}
          onOpen={() => openWith(true)}
          onClose={() => openWith(false)}
        >
          {children}
        </Tooltip>
      ) : (
        children
      )}
    </span>
  );
}
