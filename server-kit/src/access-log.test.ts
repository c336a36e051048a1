import { Hono } from "hono";
import { describe, expect, it } from "vitest";
import { memoryLogger } from "./testing/memory-logger.ts";
import { accessLog } from "./access-log.ts";
import { registrationHasher } from "./registration-hash.ts";
import { requestId } from "./request-id.ts";
import type { ServerEnv } from "./server-env.ts";

const hash = registrationHasher("an access-log test's hash key");

function app(level: "debug" | "info" = "info") {
  const log = memoryLogger(level);
  const app = new Hono<ServerEnv>();
  app.use(requestId, accessLog(log, hash));
  app.get("/health", (c) => c.text("ok"));
  app.get("/v1/compliance/:registration", (c) => c.text("checked"));
  app.get("*", (c) => c.text("page"));
  return { app, log };
}

describe("accessLog", () => {
  it("logs the route's template and the plate's hash, never the path", async () => {
    const { app: server, log } = app();
    await server.request("/v1/compliance/ab12cde?name=x", {
      headers: { "X-Request-Id": "req-1" },
    });
    expect(log.events).toEqual([
      expect.objectContaining({
        level: "info",
        msg: "request",
        requestId: "req-1",
        method: "GET",
        route: "/v1/compliance/:registration",
        registration: hash("AB12CDE"),
        status: 200,
        durationMs: expect.any(Number),
      }),
    ]);
    expect(log.text()).not.toMatch(/ab12cde|AB12CDE|name=x/);
  });

  it("names a catch-all route `*`, so a deep link's plate stays out", async () => {
    const { app: server, log } = app();
    await server.request("/vehicle/AB12CDE");
    expect(log.events[0]).toMatchObject({ route: "*", status: 200 });
    expect(log.text()).not.toContain("AB12CDE");
  });

  it("logs health probes at debug only", async () => {
    const quiet = app("info");
    await quiet.app.request("/health");
    expect(quiet.log.events).toEqual([]);
    const verbose = app("debug");
    await verbose.app.request("/health");
    expect(verbose.log.events).toEqual([
      expect.objectContaining({ level: "debug", route: "/health" }),
    ]);
  });
});
