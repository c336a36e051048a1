// A wrong method on a known path is answered 405 with its Allow header by one fallback route
// under a prefix (`/v1/*`), not by an `all` route on each path: Hono's RegExpRouter, which
// matches a request with one regular expression per method and builds nothing per match,
// refuses a path template beside a static path at the same level of one method (an `all` on
// `/v1/vehicle/:registration/insurance` puts one beside POST `/v1/vehicle/bulk-insurance`),
// and Hono then falls back to its TrieRouter for every request (decision 047).
import type { Context, Env, Hono, Next } from "hono";
import { TrieRouter } from "hono/router/trie-router";

export interface KnownRoute {
  /** Lower or upper case; GET allows HEAD too, as Hono answers HEAD with the GET route. */
  method: string;
  /** As registered with Hono. */
  path: string;
}

/**
 * The Allow header's value for a request path among `routes`; undefined when none has it.
 * The paths are matched by Hono's own TrieRouter, as the app matches them; only a 405 asks.
 */
export function allowedMethods(
  routes: readonly KnownRoute[],
): (path: string) => string | undefined {
  const byPath = new Map<string, string[]>();
  for (const { method, path } of routes) {
    const methods = byPath.get(path) ?? [];
    const upper = method.toUpperCase();
    for (const allowed of upper === "GET" ? ["GET", "HEAD"] : [upper])
      if (!methods.includes(allowed)) methods.push(allowed);
    byPath.set(path, methods);
  }
  const router = new TrieRouter<string>();
  for (const [path, methods] of byPath)
    router.add("ALL", path, methods.join(", "));
  return (path) => router.match("GET", path)[0][0]?.[0];
}

/**
 * Answers a wrong method on any route `app` has under `prefix` so far (call it after them)
 * with `refuse(c, allow)`, which throws the app's 405 problem; other requests go on.
 */
export function answerWrongMethods<E extends Env>(
  app: Hono<E>,
  prefix: string,
  refuse: (c: Context<E>, allow: string) => never,
): void {
  const allow = allowedMethods(
    app.routes.filter(
      ({ method, path }) =>
        method !== "ALL" &&
        path.startsWith(`${prefix}/`) &&
        !path.includes("*"),
    ),
  );
  app.all(`${prefix}/*`, (c: Context<E>, next: Next) => {
    const allowed = allow(c.req.path);
    if (allowed === undefined) return next();
    return refuse(c, allowed);
  });
}
