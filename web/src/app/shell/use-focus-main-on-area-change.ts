// Moves focus to the main content when the user goes to another area, as a page load would.
import { useLayoutEffect, useRef } from "react";
import { useLocation } from "react-router";
import { areaAt } from "../nav-areas.ts";

// Within one area (e.g. "/" to "/vehicle/AB12CDE" after a submit) focus stays where
// the user is, so they can check the next vehicle straight away.
export function useFocusMainOnAreaChange(mainId: string): void {
  const { pathname } = useLocation();
  const area = areaAt(pathname)?.to ?? pathname;
  const previous = useRef(area);

  // A layout effect: focus has moved by the time the new area is painted (and seen by a test).
  useLayoutEffect(() => {
    if (previous.current === area) return;
    previous.current = area;
    document.getElementById(mainId)?.focus();
  }, [area, mainId]);
}
