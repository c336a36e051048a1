import { createServer } from "node:http";
import { request as httpRequest } from "node:http";
import { getRequestListener } from "@hono/node-server";
import { REQUEST_ID_HEADER } from "@vics/shared";
import { errorHandler } from "@vics/server-kit/error-handlers";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { Hono } from "hono";
import { afterEach, describe, expect, it } from "vitest";
import { openSqliteStore } from "../store/sqlite/sqlite-store.ts";
import type { Store } from "../store/store.ts";
import { testAppDeps } from "../testing/index.ts";
import { issueApiKey } from "../keys/api-key.ts";
import { expectMeteredHeaders } from "../testing/requests.ts";
import type { AppEnv } from "./app-env.ts";
import { jsonAnswer, requestEdge, withEdgeHeaders } from "./edge.ts";
import { problems } from "./problems.ts";

const stores: Store[] = [];
afterEach(async () => {
  await Promise.all(stores.splice(0).map((store) => store.close()));
});

/** An app of the edge alone, with routes that answer directly, forget to, or throw. */
async function edgeApp() {
  const store = openSqliteStore({
    path: ":memory:",
    seed: { fleetSize: 0, seed: 1, today: "2026-03-10" },
  });
  stores.push(store);
  const logger = memoryLogger();
  const deps = testAppDeps(store, { logger });
  const onError = withEdgeHeaders(
    errorHandler({ logger, internal: problems.internal }),
  );
  const app = new Hono<AppEnv>();
  app.use(
    requestEdge(deps, {
      unmetered: new Set(["/probe"]),
      answeredDirectly: new Set(["/direct/:registration", "/forgot", "/fails"]),
      onError,
    }),
  );
  app.get("/probe", (c) => c.text("ok"));
  app.get("/direct/:registration", (c) => jsonAnswer(c, { answer: 1 }));
  app.get("/forgot", (c) => c.json({ answer: 2 }));
  app.get("/fails", () => {
    throw problems.invalidKey();
  });
  app.get("/other", (c) => c.json({ answer: 3 }));
  app.notFound(() => {
    throw problems.routeNotFound();
  });
  app.onError(onError);
  const { key } = await issueApiKey(store, "trial", "edge", new Date());
  return { app, logger, key };
}

describe("requestEdge", () => {
  it("puts the id and the limit on every counted answer, however it was made", async () => {
    const { app, key } = await edgeApp();
    for (const path of [
      "/direct/AB12CDE",
      "/forgot",
      "/fails",
      "/other",
      "/nowhere",
    ]) {
      const response = await app.request(path, {
        headers: { "X-API-Key": key },
      });
      expectMeteredHeaders(response, 10);
    }
    const direct = await app.request("/direct/AB12CDE", {
      headers: { "X-API-Key": key, [REQUEST_ID_HEADER]: "mine-1" },
    });
    expect(direct.headers.get("content-type")).toBe("application/json");
    expect(direct.headers.get(REQUEST_ID_HEADER)).toBe("mine-1");
    expect(await direct.json()).toEqual({ answer: 1 });
  });

  it("counts no probe, and gives it its id", async () => {
    const { app, key } = await edgeApp();
    const probe = await app.request("/probe", {
      headers: { "X-API-Key": key },
    });
    expect(probe.headers.get(REQUEST_ID_HEADER)).toBeTruthy();
    expect(probe.headers.has("X-RateLimit-Limit")).toBe(false);
    // The trial plan's 10 are all still there.
    const counted = await app.request("/other", {
      headers: { "X-API-Key": key },
    });
    expect(counted.headers.get("X-RateLimit-Remaining")).toBe("9");
  });

  it("logs one line per request, refused ones too, with the plate as a hash", async () => {
    const { app, logger, key } = await edgeApp();
    for (let i = 0; i < 11; i++)
      await app.request("/direct/AB12CDE", { headers: { "X-API-Key": key } });
    const lines = logger.events.filter((event) => event.msg === "request");
    expect(lines).toHaveLength(11);
    expect(lines.map((line) => line.status)).toEqual([
      ...Array<number>(10).fill(200),
      429,
    ]);
    expect(lines[0]).toMatchObject({
      route: "/direct/:registration",
      method: "GET",
      registration: expect.stringMatching(/^[0-9a-f]{12}$/),
    });
    expect(logger.text()).not.toContain("AB12CDE");
  });

  it("writes a direct answer as Hono would: lower-case names, a Content-Length, not chunked", async () => {
    const { app, key } = await edgeApp();
    const server = createServer(getRequestListener(app.fetch));
    await new Promise<void>((listening) =>
      server.listen(0, "127.0.0.1", listening),
    );
    try {
      const { port } = server.address() as { port: number };
      const raw = await new Promise<string[]>((done, fail) => {
        const request = httpRequest(
          {
            host: "127.0.0.1",
            port,
            path: "/direct/AB12CDE",
            headers: { "X-API-Key": key },
          },
          (response) => {
            response.resume();
            response.on("end", () => done(response.rawHeaders));
          },
        );
        request.on("error", fail);
        request.end();
      });
      const names = raw.filter((_, index) => index % 2 === 0);
      expect(names).toEqual(
        expect.arrayContaining([
          "content-type",
          "x-ratelimit-limit",
          "x-ratelimit-remaining",
          "x-ratelimit-reset",
          "x-request-id",
        ]),
      );
      expect(names.map((name) => name.toLowerCase())).toContain(
        "content-length",
      );
      expect(names.map((name) => name.toLowerCase())).not.toContain(
        "transfer-encoding",
      );
    } finally {
      await new Promise((closed) => server.close(closed));
    }
  });
});
