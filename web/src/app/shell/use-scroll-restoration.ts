// Where the window scrolls when the address changes, as with pages the browser loads: another
// page opens at its top; Back and Forward return to where the user was on that entry. A change
// of the query alone (the fleet results' filters) leaves the page where it is.
import { useEffect, useLayoutEffect, useRef } from "react";
import { useLocation, useNavigationType } from "react-router";

/** Each history entry's last scroll position, by the router's key for the entry. */
const positions = new Map<string, number>();

export function useScrollRestoration(): void {
  const { key, pathname } = useLocation();
  const action = useNavigationType();
  const shown = useRef({ key, pathname });

  useEffect(() => {
    // The browser's own restoration would scroll before the page's content is back.
    window.history.scrollRestoration = "manual";
    const remember = () => positions.set(shown.current.key, window.scrollY);
    window.addEventListener("scroll", remember, { passive: true });
    return () => window.removeEventListener("scroll", remember);
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
