import { randomUUID } from "node:crypto";
import { isAcceptableRequestId, REQUEST_ID_HEADER } from "@vics/shared";
import { createMiddleware } from "hono/factory";
import type { AppEnv } from "./app-env.ts";

export const requestId = createMiddleware<AppEnv>(async (c, next) => {
  const inbound = c.req.header(REQUEST_ID_HEADER);
  const id = isAcceptableRequestId(inbound) ? inbound : randomUUID();
  c.set("requestId", id);
  c.header(REQUEST_ID_HEADER, id);
  await next();
});
