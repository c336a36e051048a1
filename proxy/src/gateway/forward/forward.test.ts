import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, ProblemSchema, problemType } from "@vics/shared";
import { registrationHasher } from "@vics/server-kit/registration-hash";
import {
  TEST_API_KEY,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";
import { insuranceRecord } from "../../testing/fault-answers.ts";
import { UPSTREAM_ACCEPT } from "./header-allowlists.ts";

const INSURANCE_PATH = "/api/v1/vehicle/AB12CDE/insurance";

const upstreamProblem = (status: number, code: string, headers = {}) =>
  new Response(
    JSON.stringify({
      type: problemType("INTERNAL"),
      title: "Problem",
      status,
      detail: "From the service",
      code,
      requestId: "svc-1",
    }),
    { status, headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...headers } },
  );

describe("what the upstream receives", () => {
  it("only the proxy's own Accept and X-API-Key, and its own request id", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(INSURANCE_PATH, {
      headers: {
        Accept: "text/html, application/json;q=0.9",
        "X-API-Key": "the-browser-s-own-key",
        Cookie: "session=abc",
        Authorization: "Bearer stolen",
        "X-Forwarded-For": "203.0.113.9",
        "X-Request-Id": "browser-req-42",
        "User-Agent": "Mozilla/5.0",
        // Its own origin: another is refused before forwarding (browser-checks.ts).
        Origin: "http://localhost",
      },
    });
    const sent = upstream.requests[0]?.headers;
    expect(Object.fromEntries(sent ?? [])).toEqual({
      accept: UPSTREAM_ACCEPT,
      "x-api-key": TEST_API_KEY,
      "x-request-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it.each([
    ["spaces and markup", "bad id; <script>"],
    ["an equals sign", "abc=def"],
    ["65 characters", "a".repeat(65)],
    ["non-ASCII", "réq-1"],
  ])("replaces a request id with %s by one of its own", async (_case, id) => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(INSURANCE_PATH, {
      headers: { "X-Request-Id": id },
    });
    const sentId = upstream.requests[0]?.headers.get("X-Request-Id");
    expect(sentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("X-Request-Id")).toBe(sentId);
  });

  it("sends its own id for a plain one too: a client never chooses the request id", async () => {
    const id = `web.${"x".repeat(56)}_1-2`;
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(INSURANCE_PATH, {
      headers: { "X-Request-Id": id },
    });
    const sentId = upstream.requests[0]?.headers.get("X-Request-Id");
    expect(sentId).toMatch(/^[0-9a-f-]{36}$/);
    expect(response.headers.get("X-Request-Id")).toBe(sentId);
  });

  it("passes the browser's valid traceparent on unchanged while the proxy traces nothing", async () => {
    const traceparent =
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00";
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(INSURANCE_PATH, { headers: { traceparent } });
    expect(upstream.requests[0]?.headers.get("traceparent")).toBe(traceparent);
  });

  it.each([
    [
      "upper-case hex",
      "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
    ],
    ["a zero trace id", `00-${"0".repeat(32)}-00f067aa0ba902b7-01`],
    [
      "a zero parent id",
      `00-4bf92f3577b34da6a3ce929d0e0e4736-${"0".repeat(16)}-01`,
    ],
    ["version ff", "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"],
    [
      "more after version 00",
      "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-x",
    ],
    ["a plate in it", "00-AB12CDE"],
  ])("drops a traceparent with %s", async (_case, traceparent) => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(INSURANCE_PATH, { headers: { traceparent } });
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.headers.get("traceparent")).toBeNull();
  });

  it("asks for JSON when the browser sends no Accept", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(new Request(`http://localhost${INSURANCE_PATH}`));
    expect(upstream.requests[0]?.headers.get("Accept")).toBe(UPSTREAM_ACCEPT);
  });
});

describe("what the browser gets back", () => {
  it("status, body, Content-Type and only the allowlisted headers", async () => {
    const body = JSON.stringify(insuranceRecord("AB12CDE"));
    const upstream = fakeUpstream(
      () =>
        new Response(body, {
          status: 200,
          headers: {
            "Content-Type": "application/json; charset=UTF-8",
            "X-RateLimit-Limit": "120",
            "X-RateLimit-Remaining": "119",
            "X-RateLimit-Reset": "42",
            "X-Request-Id": "svc-req-1",
            "Set-Cookie": "tracking=1",
            Server: "vics-service/1.0",
            "X-Powered-By": "Hono",
            "Access-Control-Allow-Origin": "*",
            "X-Internal-Db": "sqlite",
          },
        }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(INSURANCE_PATH);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
    const headers = response.headers;
    expect(headers.get("Content-Type")).toBe("application/json; charset=UTF-8");
    expect(headers.get("X-RateLimit-Limit")).toBe("120");
    expect(headers.get("X-RateLimit-Remaining")).toBe("119");
    expect(headers.get("X-RateLimit-Reset")).toBe("42");
    expect(headers.get("X-Request-Id")).toBe("svc-req-1");
    expect(headers.get("Cache-Control")).toBe("no-store");
    for (const name of [
      "Set-Cookie",
      "Server",
      "X-Powered-By",
      "Access-Control-Allow-Origin",
      "X-Internal-Db",
    ]) {
      expect(headers.get(name), name).toBeNull();
    }
  });

  it.each([
    [400, "INVALID_REGISTRATION"],
    [404, "VEHICLE_NOT_FOUND"],
    [500, "INTERNAL"],
  ])("passes a %i problem through unchanged", async (status, code) => {
    const upstream = fakeUpstream(() => upstreamProblem(status, code));
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(INSURANCE_PATH);
    expect(response.status).toBe(status);
    expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
    expect(ProblemSchema.parse(await response.json())).toMatchObject({
      code,
      detail: "From the service",
    });
  });

  it("passes a 429 through with Retry-After and the rate-limit headers", async () => {
    const upstream = fakeUpstream(() =>
      upstreamProblem(429, "RATE_LIMITED", {
        "Retry-After": "17",
        "X-RateLimit-Limit": "10",
        "X-RateLimit-Remaining": "0",
        "X-RateLimit-Reset": "17",
      }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(INSURANCE_PATH);
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("17");
    expect(response.headers.get("X-RateLimit-Remaining")).toBe("0");
  });

  it("passes a 401 through and warns that the proxy's key was rejected", async () => {
    const upstream = fakeUpstream(() => upstreamProblem(401, "UNAUTHORIZED"));
    const { app, log } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(INSURANCE_PATH);
    expect(response.status).toBe(401);
    const warning = log.entries.find((entry) => entry.level === "warn");
    expect(warning?.message).toMatch(/rejected the proxy's API key/);
    expect(log.text()).not.toContain(TEST_API_KEY);
  });

  it("adds the security headers to API answers too", async () => {
    const { app } = createTestProxy({ fetch: fakeUpstream().fetch });
    const response = await app.request(INSURANCE_PATH);
    expect(response.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(response.headers.get("Content-Security-Policy")).toContain(
      "default-src 'self'",
    );
  });
});

describe("one log line per request", () => {
  it("with method, route template, status, duration and request id, the registration only as a keyed hash, never the key", async () => {
    const hashRegistration = registrationHasher("a proxy test's log hash key");
    const { app, log } = createTestProxy({
      fetch: fakeUpstream().fetch,
      hashRegistration,
    });
    const response = await app.request(INSURANCE_PATH, {
      headers: { "X-API-Key": "browser-key" },
    });
    await app.request("/vehicle/AB12CDE");
    const lines = log.entries.filter((entry) => entry.message === "request");
    expect(lines).toHaveLength(2);
    expect(lines[0]?.fields).toMatchObject({
      method: "GET",
      route: "/api/v1/vehicle/:registration/insurance",
      registration: hashRegistration("AB12CDE"),
      status: 200,
      requestId: response.headers.get("X-Request-Id"),
    });
    expect(lines[0]?.fields.durationMs).toEqual(expect.any(Number));
    expect(lines[1]?.fields).not.toHaveProperty("registration");
    // A deep link into the app: served by the catch-all, logged as such.
    expect(lines[1]?.fields).toMatchObject({ route: "*" });
    expect(log.text()).not.toContain(TEST_API_KEY);
    expect(log.text()).not.toContain("browser-key");
    expect(log.text()).not.toContain("AB12CDE");
  });
});
