import { randomUUID } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { isAcceptableRequestId, REQUEST_ID_HEADER } from "@vics/shared";
import type { AppEnv } from "./app-env.ts";

/** Reuses a browser's X-Request-Id only when short and plain; otherwise makes one. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const inbound = c.req.header(REQUEST_ID_HEADER);
  const id = isAcceptableRequestId(inbound) ? inbound : randomUUID();
  c.set("requestId", id);
  c.header(REQUEST_ID_HEADER, id);
  await next();
});
