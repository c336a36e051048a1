import { createMiddleware } from "hono/factory";
import type { AppContext, AppEnv } from "../http/app-env.ts";

type EdgeCheck = (c: AppContext) => void;

/**
 * The edges (docs/decisions/018-proxy-edges.md) as one middleware, each check in this order:
 * the host, then, except on a browser navigation's paths, the origin and fetch metadata, then
 * the body. One middleware rather than one each: every middleware is another promise and
 * another step of Hono's dispatch on every request, and these only look at the request.
 */
export function edges(checks: {
  host: EdgeCheck;
  browser: EdgeCheck;
  body: EdgeCheck;
  /** Paths a browser navigates to (no custom header; a provider's redirect is cross-site). */
  navigations: ReadonlySet<string>;
}) {
  const { host, browser, body, navigations } = checks;
  // Not async: a check's throw reaches Hono's error handler all the same (compose catches it).
  return createMiddleware<AppEnv>((c, next) => {
    host(c);
    if (!navigations.has(c.req.path)) browser(c);
    body(c);
    return next();
  });
}
