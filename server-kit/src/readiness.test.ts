import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { ProblemSchema } from "@vics/shared";
import { memoryLogger } from "./testing/memory-logger.ts";
import { DependencyUnavailableError } from "./dependency-unavailable.ts";
import { errorHandler } from "./error-handlers.ts";
import { ProblemError } from "./problem-error.ts";
import { registerProbes, type ReadinessChecks } from "./readiness.ts";
import { requestId } from "./request-id.ts";
import type { ServerEnv } from "./server-env.ts";

function app(checks: ReadinessChecks) {
  const app = new Hono<ServerEnv>();
  app.use(requestId);
  registerProbes(app, checks);
  app.onError(
    errorHandler({
      logger: memoryLogger(),
      internal: () => new ProblemError(500, "INTERNAL", "x"),
    }),
  );
  return app;
}

const up = async () => {};

describe("GET /ready", () => {
  it("is 200 when the database and the rate limiter answer", async () => {
    const response = await app({ database: up, "rate limiter": up }).request(
      "/ready",
    );
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });

  it("is a 503 naming the dependency that fails, with Retry-After", async () => {
    const response = await app({
      database: up,
      "rate limiter": async () => {
        throw new Error("ECONNREFUSED");
      },
    }).request("/ready");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.code).toBe("SERVICE_UNAVAILABLE");
    expect(problem.detail).toContain("rate limiter is not answering");
  });

  it("counts a dependency that does not answer within 2 s as down, rather than hanging", async () => {
    const response = await app({
      database: () => new Promise<void>(() => {}),
    }).request("/ready");
    expect(response.status).toBe(503);
    expect(ProblemSchema.parse(await response.json()).detail).toContain(
      "database",
    );
  }, 10_000);

  it("passes on a dependency's own DependencyUnavailableError as it is, not wrapped twice", async () => {
    const log = memoryLogger();
    const server = new Hono<ServerEnv>();
    server.use(requestId);
    registerProbes(server, {
      "rate limiter": async () => {
        throw new DependencyUnavailableError(
          "rate limiter",
          new Error("The client is closed"),
        );
      },
    });
    server.onError(
      errorHandler({
        logger: log,
        internal: () => new ProblemError(500, "INTERNAL", "x"),
      }),
    );
    const response = await server.request("/ready");
    expect(response.status).toBe(503);
    expect(log.events).toEqual([
      expect.objectContaining({
        error: "The rate limiter is not answering (The client is closed)",
      }),
    ]);
  });
});
