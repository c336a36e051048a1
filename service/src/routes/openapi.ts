import { ROUTE_PATTERNS } from "@vics/shared";
import type { Hono } from "hono";
import type { AppEnv } from "../http/app-env.ts";
import { createOpenApiDocument } from "../openapi/document.ts";

export function openApiRoute(app: Hono<AppEnv>): void {
  const document = createOpenApiDocument();
  app.get(ROUTE_PATTERNS.openapi, (c) => c.json(document));
}
