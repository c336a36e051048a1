import type { Hono } from "hono";
import { PROXY_PREFIX, ROUTE_PATTERNS, paths } from "@vics/shared";
import type { AppContext, AppEnv } from "./app-env.ts";
import type { Forward } from "./forward.ts";
import { PROXY_PROBLEMS, problemResponse } from "./problem.ts";

const INSURANCE = `${PROXY_PREFIX}${ROUTE_PATTERNS.insurance}` as const;
const COMPLIANCE = `${PROXY_PREFIX}${ROUTE_PATTERNS.compliance}` as const;
const OPENAPI = `${PROXY_PREFIX}${ROUTE_PATTERNS.openapi}` as const;

/** Only these reach the service. The bulk check is not forwarded yet (a later issue). */
export const FORWARDED_PATTERNS = [INSURANCE, COMPLIANCE, OPENAPI] as const;

const notFound = (c: AppContext) => problemResponse(c, PROXY_PROBLEMS.notFound);

export function registerApiRoutes(app: Hono<AppEnv>, forward: Forward) {
  // paths.* re-encode the (decoded) registration, so it stays one path segment. Dot
  // segments never get here: every Request URL is normalised before routing.
  app.get(INSURANCE, (c) =>
    forward(c, paths.insurance(c.req.param("registration"))),
  );
  app.get(COMPLIANCE, (c) =>
    forward(c, paths.compliance(c.req.param("registration"))),
  );
  app.get(OPENAPI, (c) => forward(c, paths.openapi()));
  for (const pattern of FORWARDED_PATTERNS) {
    app.all(pattern, (c) =>
      problemResponse(c, PROXY_PROBLEMS.methodNotAllowed, {
        Allow: "GET, HEAD",
      }),
    );
  }
  // Everything else under /api is answered here and never forwarded.
  app.all(PROXY_PREFIX, notFound);
  app.all(`${PROXY_PREFIX}/*`, notFound);
}
