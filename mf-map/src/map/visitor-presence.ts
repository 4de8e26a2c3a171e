import { useSyncExternalStore } from 'react';

/** What tells that a visitor turns to the page: a touch, a pointer move, a key, the wheel or a scroll. */
const VISITOR_EVENTS = ['pointerdown', 'pointermove', 'touchstart', 'keydown', 'wheel', 'scroll'] as const;

let turned = false;
const listeners = new Set<() => void>();

function markTurned(): void {
  if (turned) return;
  turned = true;
  for (const type of VISITOR_EVENTS) window.removeEventListener(type, markTurned);
  for (const notify of listeners) notify();
}

// Listened for as soon as mf-map's code runs, before its page is hydrated: a touch meanwhile counts too.
if (typeof window !== 'undefined') {
  for (const type of VISITOR_EVENTS) window.addEventListener(type, markTurned, { passive: true });
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/**
 * Whether the visitor has turned to the page since mf-map's code arrived; false on the server and while hydrating
 * (docs/decisions.md, "The map's first paint").
 */
export function useVisitorTurned(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => turned,
    () => false,
  );
}
