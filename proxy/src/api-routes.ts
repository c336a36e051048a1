import type { Hono } from "hono";
import {
  API_VERSION_PREFIX,
  PROXY_PREFIX,
  ROUTE_PATTERNS,
  paths,
} from "@vics/shared";
import type { AppContext, AppEnv } from "./app-env.ts";
import { bulkBodyChecks, validatedBulkBody } from "./bulk-body.ts";
import type { Forward, RewriteAnswer } from "./forward.ts";
import { type ForwardedRoute, proxyCopyOfOpenApi } from "./openapi-copy.ts";
import { PROXY_PROBLEMS, problemResponse } from "./problem.ts";

interface ForwardedOperation extends ForwardedRoute {
  /** The service's path for this request. */
  upstreamPath(c: AppContext): string;
  rewrite?: RewriteAnswer;
}

// paths.* re-encode the (decoded) registration, so it stays one path segment. Dot
// segments never get here: every Request URL is normalised before routing.
const registration = (c: AppContext) => c.req.param("registration") ?? "";

/**
 * Only these reach the service, and the proxy's copy of the OpenAPI document lists
 * exactly these. A POST carries a bulk request body, checked here first (bulk-body.ts).
 */
export const FORWARDED_OPERATIONS: readonly ForwardedOperation[] = [
  {
    method: "get",
    route: ROUTE_PATTERNS.insurance,
    upstreamPath: (c) => paths.insurance(registration(c)),
  },
  {
    method: "post",
    route: ROUTE_PATTERNS.bulkInsurance,
    upstreamPath: () => paths.bulkInsurance(),
  },
  {
    method: "post",
    route: ROUTE_PATTERNS.bulkCompliance,
    upstreamPath: () => paths.bulkCompliance(),
  },
  {
    method: "get",
    route: ROUTE_PATTERNS.compliance,
    upstreamPath: (c) => paths.compliance(registration(c)),
  },
  {
    method: "get",
    route: ROUTE_PATTERNS.openapi,
    upstreamPath: () => paths.openapi(),
    rewrite: (document) => proxyCopyOfOpenApi(document, FORWARDED_OPERATIONS),
  },
];

// Hono answers HEAD with the GET route.
const allowHeader = (methods: readonly string[]) =>
  methods
    .flatMap((method) => (method === "get" ? ["GET", "HEAD"] : [method]))
    .map((method) => method.toUpperCase())
    .join(", ");

/**
 * Where an API client may call the proxy by mistake: anything under /api that is not
 * forwarded, and the service's own /v1 paths (what a client that ignores the OpenAPI
 * document's server calls), in any letter case. Never the web app's HTML for these.
 */
const API_LOOKALIKE = new RegExp(
  `^(${PROXY_PREFIX}|${API_VERSION_PREFIX})(/|$)`,
  "i",
);

function register(
  app: Hono<AppEnv>,
  forward: Forward,
  operation: ForwardedOperation,
) {
  const path = PROXY_PREFIX + operation.route;
  if (operation.method === "get") {
    app.get(path, (c) =>
      forward(c, {
        path: operation.upstreamPath(c),
        rewrite: operation.rewrite,
      }),
    );
    return;
  }
  app.post(path, ...bulkBodyChecks, async (c) => {
    const body = await validatedBulkBody(c);
    if ("refused" in body) return body.refused;
    return forward(c, { path: operation.upstreamPath(c), json: body.json });
  });
}

export function registerApiRoutes(app: Hono<AppEnv>, forward: Forward) {
  for (const operation of FORWARDED_OPERATIONS)
    register(app, forward, operation);
  for (const route of new Set(FORWARDED_OPERATIONS.map((op) => op.route))) {
    const methods = FORWARDED_OPERATIONS.filter((op) => op.route === route);
    const allow = allowHeader(methods.map((op) => op.method));
    app.all(PROXY_PREFIX + route, (c) =>
      problemResponse(c, PROXY_PROBLEMS.methodNotAllowed(allow), {
        Allow: allow,
      }),
    );
  }
  // Answered here and never forwarded, before the web app's fallback can see them.
  app.all("*", async (c, next) => {
    if (!API_LOOKALIKE.test(c.req.path)) return next();
    return problemResponse(c, PROXY_PROBLEMS.notFound);
  });
}
