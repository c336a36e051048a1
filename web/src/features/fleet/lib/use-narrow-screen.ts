// Whether the screen is a phone's width: the app's own breakpoint (its styles change at 641px).
// The results show cards there, as a table of many columns cannot fit.
import { useSyncExternalStore } from "react";

const NARROW = "(max-width: 640px)";

function query(): MediaQueryList | undefined {
  // Test environments without layout (jsdom) have no matchMedia: they get the table.
  return typeof window.matchMedia === "function"
    ? window.matchMedia(NARROW)
    : undefined;
}

function subscribe(onChange: () => void): () => void {
  const list = query();
  list?.addEventListener("change", onChange);
  return () => list?.removeEventListener("change", onChange);
}

export function useNarrowScreen(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => query()?.matches ?? false,
    () => false,
  );
}
