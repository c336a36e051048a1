import { HEALTH_PATH, ROUTE_PATTERNS } from "@vics/shared";
import { accessLog } from "@vics/shared/server/access-log";
import {
  errorHandler,
  notFoundHandler,
} from "@vics/shared/server/error-handlers";
import { registerReadiness } from "@vics/shared/server/readiness";
import { requestId } from "@vics/shared/server/request-id";
import { Hono } from "hono";
import type { AppDeps } from "./app-deps.ts";
import type { AppEnv } from "./http/app-env.ts";
import { problems } from "./http/problems.ts";
import { rateLimit } from "./http/rate-limit.ts";
import { SandboxFailure } from "./sandbox.ts";
import { bulkComplianceRoute, bulkInsuranceRoute } from "./routes/bulk.ts";
import { complianceRoute } from "./routes/compliance.ts";
import { dataRoutes } from "./routes/data.ts";
import { insuranceRoute } from "./routes/insurance.ts";
import { openApiRoute } from "./routes/openapi.ts";

// Hono answers HEAD with the GET route, so HEAD is allowed wherever GET is.
const GET_ONLY = "GET, HEAD";
const POST_ONLY = "POST";

export function createApp(deps: AppDeps): Hono<AppEnv> {
  const app = new Hono<AppEnv>();
  app.use(requestId, accessLog(deps.logger, deps.hashRegistration));

  // Registered before the rate limiter, whose middleware therefore never runs for it.
  app.get(HEALTH_PATH, (c) => c.json({ status: "ok" }));
  // For load balancers: 200 when the database and the limits' Redis answer, else a 503.
  registerReadiness(app, {
    database: () => deps.store.ping(),
    "rate limiter": () => deps.rateLimiter.ping(),
  });
  app.all(HEALTH_PATH, (c) => {
    throw problems.methodNotAllowed(c.req.method, GET_ONLY);
  });

  app.use(rateLimit(deps));
  insuranceRoute(app, deps);
  complianceRoute(app, deps);
  bulkInsuranceRoute(app, deps);
  bulkComplianceRoute(app, deps);
  openApiRoute(app);
  dataRoutes(app, deps);
  for (const path of [
    ROUTE_PATTERNS.insurance,
    ROUTE_PATTERNS.compliance,
    ROUTE_PATTERNS.openapi,
  ])
    app.all(path, (c) => {
      throw problems.methodNotAllowed(c.req.method, GET_ONLY);
    });
  for (const path of [
    ROUTE_PATTERNS.bulkInsurance,
    ROUTE_PATTERNS.bulkCompliance,
  ])
    app.all(path, (c) => {
      throw problems.methodNotAllowed(c.req.method, POST_ONLY);
    });

  app.notFound(notFoundHandler(problems.routeNotFound));
  app.onError(
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
  return app;
}
