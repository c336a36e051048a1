import { HEALTH_PATH, READY_PATH, ROUTE_PATTERNS } from "@vics/shared";
import { errorHandler, notFoundHandler } from "@vics/server-kit/error-handlers";
import { answerWrongMethods } from "@vics/server-kit/method-not-allowed";
import {
  registerProbes,
  type ReadinessChecks,
} from "@vics/server-kit/readiness";
import { Hono } from "hono";
import type { AppDeps } from "./app-deps.ts";
import type { AppEnv } from "./http/app-env.ts";
import { problems } from "./http/problems.ts";
import { requestEdge, withEdgeHeaders } from "./http/edge.ts";
import { SandboxFailure } from "./sandbox.ts";
import { bulkComplianceRoute, bulkInsuranceRoute } from "./routes/bulk.ts";
import { complianceRoute } from "./routes/compliance.ts";
import { dataRoutes } from "./routes/data.ts";
import { insuranceRoute } from "./routes/insurance.ts";
import { openApiRoute } from "./routes/openapi.ts";
import { registersRefreshRoute, registersRoute } from "./routes/registers.ts";

// Hono answers HEAD with the GET route, so HEAD is allowed wherever GET is.
const GET_ONLY = "GET, HEAD";

/** What GET /ready asks, and the metrics' vics_ready with it: the database and the limits. */
export function readinessChecks(
  deps: Pick<AppDeps, "store" | "rateLimiter">,
): ReadinessChecks {
  return {
    database: () => deps.store.ping(),
    "rate limiter": () => deps.rateLimiter.ping(),
  };
}

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  const onError = withEdgeHeaders(
    errorHandler({
      logger: deps.logger,
      internal: problems.internal,
      // ER19ERR takes the real 500 path, logged as the expected event it is, not as an
      // incident with a stack trace.
      expected: (error, c) => {
        if (!(error instanceof SandboxFailure)) return undefined;
        deps.logger.info("sandbox: simulated failure", {
          requestId: c.get("requestId"),
        });
        return problems.internal();
      },
    }),
  );
  // The request id, the rate limit and the access log of every request, in one middleware.
  app.use(
    requestEdge(deps, {
      // The probes are never counted.
      unmetered: new Set([HEALTH_PATH, READY_PATH]),
      // The single checks answer with jsonAnswer.
      answeredDirectly: new Set([
        ROUTE_PATTERNS.insurance,
        ROUTE_PATTERNS.compliance,
      ]),
      onError,
    }),
  );

  // /health: the process answers. /ready, for load balancers: 200 when the database and the
  // limits' Redis answer, else a 503.
  registerProbes(app, readinessChecks(deps));
  app.all(HEALTH_PATH, (c) => {
    throw problems.methodNotAllowed(c.req.method, GET_ONLY);
  });

  insuranceRoute(app, deps);
  complianceRoute(app, deps);
  bulkInsuranceRoute(app, deps);
  bulkComplianceRoute(app, deps);
  openApiRoute(app);
  dataRoutes(app, deps);
  registersRoute(app, deps);
  registersRefreshRoute(app, deps);
  // A wrong method on any /v1 path: one fallback, so Hono keeps its RegExpRouter (decision 047).
  answerWrongMethods(app, "/v1", (c, allow) => {
    throw problems.methodNotAllowed(c.req.method, allow);
  });

  app.notFound(notFoundHandler(problems.routeNotFound));
  app.onError(onError);
  return app;
}
