import { randomUUID } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { REQUEST_ID_HEADER } from "../rate-limit.ts";
import { isAcceptableRequestId } from "../request-id.ts";
import type { ServerEnv } from "./server-env.ts";

/** The inbound X-Request-Id when it is short and plain, else a new one. */
export const requestIdFor = (inbound: string | undefined): string =>
  isAcceptableRequestId(inbound) ? inbound : randomUUID();

/**
 * Reuses a client's X-Request-Id only when it is short and plain (it reaches logs and the
 * service's own logs through the proxy); otherwise makes one. Set on the context and the
 * answer before anything else runs, so every log line and problem document can name it.
 */
export const requestId = createMiddleware<ServerEnv>(async (c, next) => {
  const id = requestIdFor(c.req.header(REQUEST_ID_HEADER));
  c.set("requestId", id);
  c.header(REQUEST_ID_HEADER, id);
  await next();
});
