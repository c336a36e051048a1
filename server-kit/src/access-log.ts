import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import { HEALTH_PATH } from "@vics/shared";
import type { Logger } from "./logger.ts";
import type { RequestMetrics } from "./metrics.ts";
import type { RegistrationHasher } from "./registration-hash.ts";
import type { ServerEnv } from "./server-env.ts";
import { nameServerSpan } from "./tracing.ts";

/**
 * The route a request matched, as registered (`/v1/compliance/:registration`), never the
 * path itself, which can hold a registration number (also in the web app's deep links, which
 * the proxy's catch-all `*` serves). `*` when only a middleware matched: a middleware's path
 * ends in `*` (`/api/*`), a route's does not.
 */
export function routeTemplate(c: Context): string {
  const route = matchedRoutes(c).find(({ path }) => !path.endsWith("*"));
  return route?.path ?? "*";
}

/**
 * One line per request: method, route, status, duration and request id, and for a
 * single-vehicle check its registration as a keyed hash. Never headers (an API key must not
 * reach a log), the query, a body or a plate. Health probes go at debug level: supervisors
 * and `npm start` poll /health, and a line per probe would drown the real requests.
 */
export function accessLog(
  logger: Logger,
  hashRegistration: RegistrationHasher,
  metrics?: RequestMetrics,
) {
  return createMiddleware<ServerEnv>(async (c, next) => {
    const started = performance.now();
    metrics?.started();
    await next();
    logRequest(logger, hashRegistration, c, started, routeTemplate(c), metrics);
  });
}

/** A client's own X-Request-Id beside the server's (request-id.ts's ownRequestId), when sent. */
const correlation = (id: string | undefined) =>
  id === undefined ? {} : { correlationId: id };

/**
 * accessLog's line for a request answered in `c` (after its handlers ran), begun at `started`
 * (performance.now()), on `route` (routeTemplate's): for an app whose own middleware times
 * and logs its requests.
 */
export function logRequest<E extends ServerEnv>(
  logger: Logger,
  hashRegistration: RegistrationHasher,
  c: Context<E>,
  started: number,
  route: string,
  // Told of the request too, when the server has metrics: its started() was called at `started`.
  metrics?: RequestMetrics,
): void {
  const log = route === HEALTH_PATH ? logger.debug : logger.info;
  const elapsedMs = performance.now() - started;
  const registration = c.req.param("registration");
  log("request", {
    requestId: (c as unknown as Context<ServerEnv>).get("requestId"),
    ...correlation((c as unknown as Context<ServerEnv>).get("correlationId")),
    method: c.req.method,
    route,
    ...(registration ? { registration: hashRegistration(registration) } : {}),
    status: c.res.status,
    durationMs: Math.round(elapsedMs * 10) / 10,
  });
  metrics?.finished(c.req.method, route, c.res.status, elapsedMs / 1000);
  // The request's span, when traced, is named by the route, never the path.
  nameServerSpan(c.req.method, route);
}
