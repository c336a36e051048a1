import { randomUUID } from "node:crypto";
import { createMiddleware } from "hono/factory";
import { REQUEST_ID_HEADER } from "@vics/shared";
import type { AppEnv } from "./app-env.ts";

// The same rule as the service's, so an id the proxy keeps is the one the service keeps
// and one id follows a request through both logs and back to the browser.
const ACCEPTABLE_ID = /^[A-Za-z0-9._-]{1,64}$/;

/** Reuses a browser's X-Request-Id only when short and plain; otherwise makes one. */
export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const inbound = c.req.header(REQUEST_ID_HEADER);
  const id = inbound && ACCEPTABLE_ID.test(inbound) ? inbound : randomUUID();
  c.set("requestId", id);
  c.header(REQUEST_ID_HEADER, id);
  await next();
});
