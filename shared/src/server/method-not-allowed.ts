// A wrong method on a known path is answered 405 with its Allow header by one fallback route
// under a prefix (`/v1/*`), not by an `all` route on each path: Hono's RegExpRouter, which
// matches a request with one regular expression per method and builds nothing per match,
// refuses a path template beside a static path at the same level of one method (an `all` on
// `/v1/vehicle/:registration/insurance` puts one beside POST `/v1/vehicle/bulk-insurance`),
// and Hono then falls back to its TrieRouter for every request (decision 047).

export interface KnownRoute {
  /** Lower or upper case; GET allows HEAD too, as Hono answers HEAD with the GET route. */
  method: string;
  /** As registered with Hono: static segments and `:name` parameters. */
  path: string;
}

const escape = (segment: string) =>
  segment.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

function pathPattern(path: string): RegExp {
  const segments = path.split("/").map((segment) => {
    if (!segment.startsWith(":")) return escape(segment);
    if (/[{}*?]/.test(segment))
      throw new Error(`allowedMethods takes plain :name parameters: ${path}`);
    return "[^/]+";
  });
  return new RegExp(`^${segments.join("/")}$`);
}

/** The Allow header's value for a request path among `routes`; undefined when none has it. */
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
  const known = [...byPath].map(([path, methods]) => ({
    pattern: pathPattern(path),
    allow: methods.join(", "),
  }));
  return (path) => known.find(({ pattern }) => pattern.test(path))?.allow;
}
