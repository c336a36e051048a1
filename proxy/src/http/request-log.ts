import type { RegistrationHasher } from "@vics/shared/server/registration-hash";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { AppEnv } from "./app-env.ts";
import type { Logger } from "./logger.ts";

/**
 * The route a request matched, as registered (`/api/v1/compliance/:registration`), never the
 * path itself, which can hold a registration number (also in the app's own deep links, which
 * the catch-all `*` serves). `*` when only the middleware matched.
 */
export function routeTemplate(c: Context): string {
  const route = matchedRoutes(c).find(
    ({ path }) => path !== "*" && path !== "/*",
  );
  return route?.path ?? "*";
}

/**
 * One line per request, with the fields the service logs too, a single-vehicle check's
 * registration as a keyed hash. Never headers, the query or a plate.
 */
export function requestLog(
  logger: Logger,
  hashRegistration: RegistrationHasher,
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const registration = c.req.param("registration");
    logger.info("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      route: routeTemplate(c),
      ...(registration ? { registration: hashRegistration(registration) } : {}),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  });
}
