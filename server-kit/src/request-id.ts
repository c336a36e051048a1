import { randomUUID } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { REQUEST_ID_HEADER, isAcceptableRequestId } from "@vics/shared";
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

/**
 * For a server that faces clients it does not trust (the proxy): the request id is always its
 * own, so no client can choose the id its audit events and log lines are filed under. A short,
 * plain X-Request-Id the client sent is kept apart as `correlationId`, for the client to find
 * its request by. The answer names the server's id.
 */
export const ownRequestId = createMiddleware<ServerEnv>(async (c, next) => {
  const id = randomUUID();
  c.set("requestId", id);
  const inbound = c.req.header(REQUEST_ID_HEADER);
  if (isAcceptableRequestId(inbound)) c.set("correlationId", inbound);
  c.header(REQUEST_ID_HEADER, id);
  await next();
});
