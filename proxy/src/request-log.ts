import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";
import type { Logger } from "./logger.ts";

/** One line per request. The path only: a query string is not ours to log. */
export function requestLog(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    logger.info("request", {
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round(performance.now() - started),
      requestId: c.get("requestId"),
    });
  });
}
