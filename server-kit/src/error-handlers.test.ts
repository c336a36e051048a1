import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { describe, expect, it } from "vitest";
import { ProblemSchema } from "@vics/shared";
import { memoryLogger } from "./testing/memory-logger.ts";
import { errorHandler, notFoundHandler } from "./error-handlers.ts";
import { DependencyUnavailableError } from "./dependency-unavailable.ts";
import { ProblemError } from "./problem-error.ts";
import { requestId } from "./request-id.ts";
import type { ServerEnv } from "./server-env.ts";

class Expected extends Error {}

const internal = () =>
  new ProblemError(500, "INTERNAL", "Something went wrong here.");

function app(headers?: Record<string, string>) {
  const log = memoryLogger();
  const app = new Hono<ServerEnv>();
  app.use(requestId);
  app.use("/limited", async (c, next) => {
    c.header("X-RateLimit-Remaining", "7");
    await next();
  });
  app.get("/limited", () => {
    throw new ProblemError(429, "RATE_LIMITED", "Wait.", {
      "Retry-After": "5",
    });
  });
  app.get("/hono", () => {
    throw new HTTPException(400, { message: "Bad query" });
  });
  app.get("/expected", () => {
    throw new Expected("known");
  });
  app.get("/redis-down", () => {
    throw new DependencyUnavailableError(
      "rate limiter",
      new Error("connect ECONNREFUSED 127.0.0.1:6379"),
    );
  });
  app.get("/broken", () => {
    throw new Error("disk full at /var/secret-path");
  });
  app.notFound(
    notFoundHandler(() => new ProblemError(404, "NOT_FOUND", "No such route.")),
  );
  app.onError(
    errorHandler({
      logger: log,
      internal,
      headers,
      expected: (error) =>
        error instanceof Expected
          ? new ProblemError(500, "INTERNAL", "Expected, quietly.")
          : undefined,
    }),
  );
  return { app, log };
}

async function problemOf(response: Response) {
  expect(response.headers.get("Content-Type")).toBe("application/problem+json");
  return ProblemSchema.parse(await response.json());
}

describe("errorHandler", () => {
  it("renders a thrown ProblemError with its headers and those set before it", async () => {
    const response = await app().app.request("/limited", {
      headers: { "X-Request-Id": "req-7" },
    });
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("5");
    expect(response.headers.get("X-RateLimit-Remaining")).toBe("7");
    expect(response.headers.get("X-Request-Id")).toBe("req-7");
    expect(await problemOf(response)).toMatchObject({
      status: 429,
      code: "RATE_LIMITED",
      detail: "Wait.",
      requestId: "req-7",
    });
  });

  it("adds the app's own headers to every problem", async () => {
    const response = await app({ "Cache-Control": "no-store" }).app.request(
      "/nowhere",
    );
    expect(response.status).toBe(404);
    expect(response.headers.get("Cache-Control")).toBe("no-store");
    expect(await problemOf(response)).toMatchObject({ code: "NOT_FOUND" });
  });

  it("turns Hono's HTTPException under 500 into a 400 in its words", async () => {
    const response = await app().app.request("/hono");
    expect(await problemOf(response)).toMatchObject({
      status: 400,
      code: "MALFORMED_REQUEST",
      detail: "Bad query",
    });
  });

  it("lets the app answer an error it expects, logging nothing itself", async () => {
    const { app: server, log } = app();
    const response = await server.request("/expected");
    expect(await problemOf(response)).toMatchObject({
      detail: "Expected, quietly.",
    });
    expect(log.events).toEqual([]);
  });

  it("logs an unknown error with the request id, and answers the app's 500 without its words", async () => {
    const { app: server, log } = app();
    const response = await server.request("/broken");
    const text = await response.clone().text();
    expect(text).not.toContain("secret-path");
    const problem = await problemOf(response);
    expect(problem).toMatchObject({
      status: 500,
      code: "INTERNAL",
      detail: "Something went wrong here.",
    });
    expect(log.events).toEqual([
      expect.objectContaining({
        level: "error",
        msg: "unhandled error",
        requestId: problem.requestId,
        error: expect.stringContaining("disk full"),
      }),
    ]);
  });

  it("answers a dependency that is down with a 503 and Retry-After, and one warning without a stack", async () => {
    const { app: server, log } = app();
    const response = await server.request("/redis-down");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    const problem = await problemOf(response);
    expect(problem).toMatchObject({ code: "SERVICE_UNAVAILABLE" });
    expect(problem.detail).toContain("rate limiter is not answering");
    expect(problem.detail).not.toContain("ECONNREFUSED");
    expect(log.events).toEqual([
      expect.objectContaining({
        level: "warn",
        msg: "dependency unavailable",
        dependency: "rate limiter",
        requestId: problem.requestId,
      }),
    ]);
  });
});
