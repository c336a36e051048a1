// Where keyboard focus goes after a change that removes what had it (a fixed row leaves the list
// of rows to fix): set the target before the change, and it is focused once the page shows it.
import { useEffect, useRef } from "react";

export function usePlaceAfterChange(changed: unknown) {
  const pending = useRef<(() => HTMLElement | null | undefined) | null>(null);
  useEffect(() => {
    const target = pending.current?.();
    pending.current = null;
    target?.focus();
  }, [changed]);
  return {
    /** After the next change, focus the element `find` returns (it may be rendered only then). */
    focusAfter(find: () => HTMLElement | null | undefined) {
      pending.current = find;
    },
  };
}
