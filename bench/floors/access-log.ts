// The floors' access log: one pino line per request (method, route template, status, duration)
// written asynchronously to stdout, as the product logs, so a floor pays for its log as the
// product does. No request id, no plate hash, no level by route: what a floor leaves out.
import type { Context, MiddlewareHandler } from "hono";
import { pino } from "pino";
import { routeTemplate } from "@vics/server-kit/access-log";

export function accessLog(): MiddlewareHandler {
  // The bench's children have stdout on /dev/null (scripts/load/children.ts).
  const log = pino({ base: undefined }, pino.destination({ sync: false }));
  return async (c: Context, next) => {
    const started = performance.now();
    await next();
    log.info(
      {
        method: c.req.method,
        route: routeTemplate(c),
        status: c.res.status,
        durationMs: Math.round((performance.now() - started) * 10) / 10,
      },
      "request",
    );
  };
}
