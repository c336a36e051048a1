import { randomUUID } from "node:crypto";
import { REQUEST_ID_HEADER } from "@vics/shared";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";

// An inbound id is kept (so a proxy can correlate logs) only when it is short and plain.
const ACCEPTABLE_ID = /^[A-Za-z0-9._-]{1,64}$/;

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const inbound = c.req.header(REQUEST_ID_HEADER);
  const id = inbound && ACCEPTABLE_ID.test(inbound) ? inbound : randomUUID();
  c.set("requestId", id);
  c.header(REQUEST_ID_HEADER, id);
  await next();
});
