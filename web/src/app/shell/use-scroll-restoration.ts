// Where the window scrolls when the address changes, as with pages the browser loads: another
// page opens at its top; Back and Forward return to where the user was on that entry, after a
// reload or a visit to another site too. A change of the query alone (the fleet results'
// filters) leaves the page where it is.
import { useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

/** Where the positions outlive a reload: this tab's session storage. */
const STORAGE_KEY = "vics-scroll-positions";
/** The most recent entries kept there. */
const KEPT = 100;

/** Each history entry's last scroll position, by the router's key for the entry. */
let positions = new Map<string, number>();

function readStored(): [string, number][] {
  try {
    const stored: unknown = JSON.parse(
      window.sessionStorage.getItem(STORAGE_KEY) ?? "[]",
    );
    return Array.isArray(stored)
      ? stored.filter(
          (entry): entry is [string, number] =>
            Array.isArray(entry) &&
            typeof entry[0] === "string" &&
            typeof entry[1] === "number",
        )
      : [];
  } catch {
    return [];
  }
}

function remember(key: string, y: number) {
  positions.delete(key);
  positions.set(key, y);
}

function store() {
  try {
    const latest = [...positions].slice(-KEPT);
    window.sessionStorage.setItem(STORAGE_KEY, JSON.stringify(latest));
  } catch {
    // Storage full or refused: positions are a comfort, not data.
  }
}

export function useScrollRestoration(): void {
  const { key, pathname } = useLocation();
  const action = useNavigationType();
  const shown = useRef({ key, pathname });

  useLayoutEffect(() => {
    // The browser's own restoration would scroll before the page's content is back.
    window.history.scrollRestoration = "manual";
    positions = new Map(readStored());
    // Back to an entry of this tab after a reload: where the user was on it.
    const saved = positions.get(shown.current.key);
    if (saved !== undefined) window.scrollTo(0, saved);
    const onScroll = () => remember(shown.current.key, window.scrollY);
    // Leaving the page (reload, another site): keep the positions, and give scrolling back to
    // the browser for whatever comes next.
    const onPageHide = () => {
      remember(shown.current.key, window.scrollY);
      store();
      window.history.scrollRestoration = "auto";
    };
    window.addEventListener("scroll", onScroll, { passive: true });
    window.addEventListener("pagehide", onPageHide);
    return () => {
      // The layout goes (the error page took its place): the next one starts from here.
      store();
      window.removeEventListener("scroll", onScroll);
      window.removeEventListener("pagehide", onPageHide);
    };
  }, []);

  // A layout effect: the page is where it belongs before it is painted.
  useLayoutEffect(() => {
    const before = shown.current;
    if (before.key === key) return;
    shown.current = { key, pathname };
    if (action === "POP") window.scrollTo(0, positions.get(key) ?? 0);
    else if (before.pathname !== pathname) window.scrollTo(0, 0);
  }, [key, pathname, action]);
}
