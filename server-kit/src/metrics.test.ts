import { createServer } from "node:net";
import { once } from "node:events";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { Registry } from "prom-client";
import {
  createServerMetrics,
  openMetrics,
  readyGauge,
  refusalCounter,
  type OpenMetrics,
} from "./metrics.ts";

const quiet = { info() {} };
let opened: OpenMetrics | undefined;
afterEach(async () => {
  await opened?.close();
  opened = undefined;
});

/** The series of `name` in Prometheus's text format, each as its labels and value. */
function series(text: string, name: string) {
  return text
    .split("\n")
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => {
      const [, labels, value] = /^[^{]+\{(.*)\} (\S+)$/.exec(line)!;
      return {
        labels: Object.fromEntries(
          [...labels!.matchAll(/(\w+)="([^"]*)"/g)].map(([, k, v]) => [k, v]),
        ),
        value: Number(value),
      };
    });
}

describe("createServerMetrics", () => {
  it("counts and times each answered request by method, route and status, and what is in flight", async () => {
    const { registry, requests } = createServerMetrics("service");
    requests.started();
    requests.started();
    requests.finished("GET", "/v1/insurance/:registration", 200, 0.004);
    const during = await registry.metrics();
    expect(series(during, "http_requests_in_flight")).toEqual([
      { labels: { server: "service" }, value: 1 },
    ]);
    requests.finished("GET", "/v1/insurance/:registration", 200, 0.2);
    const text = await registry.metrics();
    expect(series(text, "http_requests_total")).toEqual([
      {
        labels: {
          method: "GET",
          route: "/v1/insurance/:registration",
          status: "200",
          server: "service",
        },
        value: 2,
      },
    ]);
    const buckets = series(text, "http_request_duration_seconds_bucket");
    const bucket = (le: string) =>
      buckets.find((b) => b.labels.le === le)?.value;
    expect([bucket("0.005"), bucket("0.25"), bucket("+Inf")]).toEqual([
      1, 2, 2,
    ]);
    expect(series(text, "http_requests_in_flight")[0]?.value).toBe(0);
    // Node's own process metrics come with them.
    expect(text).toMatch(
      /^process_cpu_user_seconds_total\{server="service"\} /m,
    );
  });
});

describe("readyGauge", () => {
  it("reads 1 while every readiness check answers, 0 once one does not, at each scrape", async () => {
    const registry = new Registry();
    let redisUp = true;
    readyGauge(registry, {
      database: async () => {},
      "rate limiter": async () => {
        if (!redisUp) throw new Error("ECONNREFUSED");
      },
    });
    expect(series(await registry.metrics(), "vics_ready")).toEqual([]);
    expect(await registry.metrics()).toMatch(/^vics_ready 1$/m);
    redisUp = false;
    expect(await registry.metrics()).toMatch(/^vics_ready 0$/m);
    redisUp = true;
    expect(await registry.metrics()).toMatch(/^vics_ready 1$/m);
  });
});

describe("refusalCounter", () => {
  it("shows each kind from 0 and counts the refusals of each", async () => {
    const registry = new Registry();
    const refused = refusalCounter(registry, ["user", "sign_in"]);
    refused("user");
    refused("user");
    expect(
      series(await registry.metrics(), "vics_rate_limit_refusals_total"),
    ).toEqual([
      { labels: { kind: "user" }, value: 2 },
      { labels: { kind: "sign_in" }, value: 0 },
    ]);
  });
});

describe("openMetrics", () => {
  it("measures nothing and listens nowhere when METRICS_PORT is unset", async () => {
    opened = await openMetrics("proxy", undefined, quiet);
    expect(opened.requests).toBeUndefined();
    expect(opened.registry).toBeUndefined();
  });

  it("serves GET /metrics on its own listener, and nothing else there", async () => {
    const logged: Record<string, unknown>[] = [];
    opened = await openMetrics(
      "proxy",
      { host: "127.0.0.1", port: 0 },
      { info: (message, fields) => logged.push({ message, ...fields }) },
    );
    const url = String(logged[0]?.url);
    expect(logged).toEqual([
      {
        message: "metrics listening",
        url: expect.stringMatching(/^http:\/\/127\.0\.0\.1:\d+\/metrics$/),
      },
    ]);
    opened.requests?.started();
    opened.requests?.finished("POST", "/api/v1/bulk/insurance", 429, 0.01);
    const answer = await fetch(url);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-type")).toMatch(
      /^text\/plain; version=0\.0\.4/,
    );
    expect(series(await answer.text(), "http_requests_total")).toEqual([
      {
        labels: {
          method: "POST",
          route: "/api/v1/bulk/insurance",
          status: "429",
          server: "proxy",
        },
        value: 1,
      },
    ]);
    expect((await fetch(url.replace("/metrics", "/"))).status).toBe(404);
    expect((await fetch(url, { method: "POST" })).status).toBe(404);
  });

  it("refuses, naming the address, when its port is taken", async () => {
    const taken = createServer().listen(0, "127.0.0.1");
    await once(taken, "listening");
    const { port } = taken.address() as AddressInfo;
    try {
      await expect(
        openMetrics("service", { host: "127.0.0.1", port }, quiet),
      ).rejects.toThrow(
        `The metrics cannot listen on 127.0.0.1:${port}: listen EADDRINUSE`,
      );
    } finally {
      taken.close();
    }
  });
});
