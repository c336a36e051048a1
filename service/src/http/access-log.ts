import { HEALTH_PATH } from "@vics/shared";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import { matchedRoutes } from "hono/route";
import type { RegistrationHasher } from "@vics/shared/server/registration-hash";
import type { Logger } from "../logger.ts";
import type { AppEnv } from "./app-env.ts";

/**
 * The route a request matched, as registered (`/v1/compliance/:registration`), never the
 * path itself, which holds a registration number. `*` when only the middleware matched.
 */
export function routeTemplate(c: Context): string {
  const route = matchedRoutes(c).find(
    ({ path }) => path !== "*" && path !== "/*",
  );
  return route?.path ?? "*";
}

/**
 * One line per request: method, route, status, duration and request id, and for a
 * single-vehicle check its registration as a keyed hash. Never headers (X-API-Key must not
 * reach a log), never a plate. Health probes go at debug level: supervisors and `npm start`
 * poll /health, and a line per probe would drown the real requests.
 */
export function accessLog(
  logger: Logger,
  hashRegistration: RegistrationHasher,
) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    const route = routeTemplate(c);
    const log = route === HEALTH_PATH ? logger.debug : logger.info;
    const registration = c.req.param("registration");
    log("request", {
      requestId: c.get("requestId"),
      method: c.req.method,
      route,
      ...(registration ? { registration: hashRegistration(registration) } : {}),
      status: c.res.status,
      durationMs: Math.round((performance.now() - started) * 10) / 10,
    });
  });
}
