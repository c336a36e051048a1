import { CLIENT_HEADER, PROXY_PREFIX } from "@vics/shared";
import type { AppContext } from "../http/app-env.ts";
import { EDGE_PROBLEMS } from "./edge-problems.ts";

/**
 * Who may spend the key's quota: the web app's own pages and programs that are not browsers.
 * Every /api request is checked before it is routed, so a refused one reaches nothing
 * upstream (docs/decisions/018-proxy-edges.md; OWASP's CSRF prevention, the IETF's advice
 * for backends-for-frontends):
 * - Sec-Fetch-Site, when a browser sends it, must be same-origin (the app's own fetch) or
 *   none (the user's own action); cross-site and same-site (a page on another port or a
 *   sibling subdomain) are refused, as is any value the browser does not send today.
 * - Origin, when sent, must be this proxy's origin: the configured public origin, else the
 *   request's own (scheme, host and port it was sent to).
 * - The custom header CLIENT_HEADER must be there. A form, an image, a script or a link cannot
 *   add a header, and a page's fetch on another origin can only after a CORS preflight,
 *   which the proxy never approves (it sends no Access-Control-* header at all).
 */

const API_PATH = new RegExp(`^${PROXY_PREFIX}(/|$)`);
const ALLOWED_FETCH_SITES = new Set(["same-origin", "none"]);

/** A check that throws, not a middleware: the edges run as one middleware (edges.ts). */
export function browserChecks(publicOrigin?: string): (c: AppContext) => void {
  const ownOrigin =
    publicOrigin === undefined ? undefined : new URL(publicOrigin).origin;
  return (c) => {
    if (!API_PATH.test(c.req.path)) return;
    const site = c.req.header("Sec-Fetch-Site");
    if (site !== undefined && !ALLOWED_FETCH_SITES.has(site))
      throw EDGE_PROBLEMS.crossSite();
    const origin = c.req.header("Origin");
    if (
      origin !== undefined &&
      origin !== (ownOrigin ?? new URL(c.req.url).origin)
    )
      throw EDGE_PROBLEMS.crossSite();
    if (!c.req.header(CLIENT_HEADER)?.trim())
      throw EDGE_PROBLEMS.clientHeaderMissing();
  };
}
