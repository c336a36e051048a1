// The token of a one-time link, which travels in the URL's fragment (#token=...) so that no
// request line or log holds it. Taken out of the address bar at once, before the page's code
// has even loaded (the route calls keepLinkToken first), so it is not left in the history, a
// bookmark or a screen share; the page then reads it from here.
let kept: { path: string; token: string } | undefined;

export function tokenFromHash(hash: string): string | undefined {
  const token = new URLSearchParams(hash.replace(/^#/, "")).get("token");
  return token && token.length <= 100 ? token : undefined;
}

/** Replaces the current history entry with the same address without its fragment. */
export function removeHashFromAddressBar(): void {
  if (window.location.hash === "") return;
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, "", pathname + search);
}

/** Keeps the address bar's token for the page at this path, and takes it out of the address. */
export function keepLinkToken(): void {
  const token = tokenFromHash(window.location.hash);
  if (token) kept = { path: window.location.pathname, token };
  removeHashFromAddressBar();
}

/** The token kept for `path`, or the one in `hash` (the router's copy of the address). */
export function linkToken(path: string, hash: string): string | undefined {
  return kept?.path === path ? kept.token : tokenFromHash(hash);
}

/** The token has been used (or refused): nothing of it stays in memory. */
export function forgetLinkToken(): void {
  kept = undefined;
}
