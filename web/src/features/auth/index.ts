// Staff sign-in, as the app uses it: who is signed in (on every page, so loaded with the app),
// keeping that true between checks, and the sign-in pages, loaded on demand.
export { useSession, type SessionState } from "./api/session-query.ts";
export { useSessionWatch } from "./lib/use-session-watch.ts";
export { safeReturnTo } from "./lib/return-to.ts";
import { keepLinkToken } from "./lib/link-token.ts";

/** The sign-in, one-time link, set-password and account pages, and signing out. */
export const authPages = () => import("./pages.ts");

/**
 * The same, for a one-time link's page: its token leaves the address bar before the pages'
 * code loads, so it is not left in the history, a bookmark or a screen share meanwhile.
 */
export const linkPages = () => {
  keepLinkToken();
  return authPages();
};
