import { createMiddleware } from "hono/factory";
import type { Logger } from "../logger.ts";
import type { AppEnv } from "./app-env.ts";

/** One line per request. Deliberately never logs headers: X-API-Key must not reach logs. */
export function accessLog(logger: Logger) {
  return createMiddleware<AppEnv>(async (c, next) => {
    const started = performance.now();
    await next();
    logger.info({
      msg: "request",
      method: c.req.method,
      path: c.req.path,
      status: c.res.status,
      ms: Math.round((performance.now() - started) * 10) / 10,
      requestId: c.get("requestId"),
    });
  });
}
