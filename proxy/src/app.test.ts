import { describe, expect, it } from "vitest";
import {
  ALERT_PATHS,
  AlertMailSettingsSchema,
  ProblemSchema,
} from "@vics/shared";
import type { Logger } from "@vics/server-kit/logger";
import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import {
  builtWebRoot,
  createTestProxy,
  fakeUpstream,
} from "./testing/index.ts";
import type { WatchJobs } from "./team/watch/jobs/watch-jobs.ts";

describe("an unexpected error", () => {
  it("becomes a 500 problem without internals, logged with the request id", async () => {
    const errors: Array<Record<string, unknown>> = [];
    // The request log is the one place outside a handler that can throw.
    const logger: Logger = {
      debug: () => {},
      info: () => {
        throw new Error("disk full at /var/log/secret-path");
      },
      warn: () => {},
      error: (_message, fields) => errors.push(fields ?? {}),
    };
    const { proxy: app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      logger,
    });
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(500);
    const text = await response.text();
    expect(text).not.toContain("secret-path");
    const problem = ProblemSchema.parse(JSON.parse(text));
    expect(problem.code).toBe("INTERNAL");
    expect(errors).toEqual([
      expect.objectContaining({
        requestId: problem.requestId,
        error: expect.stringContaining("disk full"),
      }),
    ]);
  });
});

describe("GET /health", () => {
  it.each(["http://127.0.0.1:3201/health", "https://vics.example.org/health"])(
    "%s: the proxy's own liveness, never the web app's page",
    async (url) => {
      const { proxy: app, store } = createTestProxy({
        fetch: fakeUpstream().fetch,
        publicOrigin: "https://vics.example.org",
        webRoot: builtWebRoot(),
      });
      // Alive, though its database is not: /ready says that.
      store.ping = async () => {
        throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
      };
      for (const method of ["GET", "HEAD"]) {
        const response = await app.request(url, { method });
        expect(response.status).toBe(200);
        expect(response.headers.get("Content-Type")).toMatch(
          /^application\/json/,
        );
        expect(response.headers.get("Cache-Control")).toBe("no-store");
        if (method === "GET")
          expect(await response.json()).toEqual({ status: "ok" });
      }
    },
  );
});

describe("GET /ready", () => {
  it("answers at the replica's own address, whatever PUBLIC_ORIGIN says", async () => {
    const { proxy: app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      publicOrigin: "https://vics.example.org",
    });
    const response = await app.request("http://127.0.0.1:3201/ready");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: "ready" });
  });

  it("is a 503 naming the store when the database does not answer", async () => {
    const { proxy: app, store } = createTestProxy({
      fetch: fakeUpstream().fetch,
    });
    store.ping = async () => {
      throw new Error("connect ECONNREFUSED 127.0.0.1:5432");
    };
    const response = await app.request("/ready");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("5");
    const problem = ProblemSchema.parse(await response.json());
    expect(problem.detail).toContain("database is not answering");
  });

  it("is a 503 naming the rate limiter when Redis does not answer", async () => {
    const { proxy: app } = createTestProxy({
      fetch: fakeUpstream().fetch,
      limitStore: {
        ...memoryLimitStore,
        ping: async () => {
          throw new Error("The client is closed");
        },
      },
    });
    const response = await app.request("/ready");
    expect(response.status).toBe(503);
    expect(ProblemSchema.parse(await response.json()).detail).toContain(
      "rate limiter",
    );
  });
});

describe("alert emails", () => {
  const jobs = (running: boolean): WatchJobs => ({
    start: async () => {},
    checkNow: async () => ({ alreadyRunning: false }),
    checking: async () => false,
    deliverNow: async () => {},
    reschedule: async () => {},
    stop: async () => {},
    state: () =>
      running ? { running: true } : { running: false, reason: "off" },
  });

  it.each([
    [true, true, true],
    [true, false, false],
    [false, true, false],
  ])(
    "a mail server %s and the re-checks' jobs running %s: emails on %s",
    async (alertMailConfigured, running, emailOn) => {
      const { app } = createTestProxy({
        fetch: fakeUpstream().fetch,
        alertMailConfigured,
        watchJobs: jobs(running),
      });
      const response = await app.request(ALERT_PATHS.mail);
      expect(response.status).toBe(200);
      expect(AlertMailSettingsSchema.parse(await response.json())).toEqual({
        digestTime: expect.any(String),
        emailOn,
      });
    },
  );
});
