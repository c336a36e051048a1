import { describe, expect, it } from "vitest";
import { CLIENT_HEADER, PLAN_LIMITS } from "@vics/shared";
import { createTestService } from "@vics/service/testing";
import {
  TEST_API_KEY,
  contractAnswer,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";

/**
 * The client's credentials are never forwarded. Every credential a browser or a
 * client can attach, on every forwarded operation, and what the upstream received.
 */

const SECRET = "browser-secret-7f3a";

const CREDENTIALS: Record<string, string> = {
  Cookie: `session=${SECRET}; vics=${SECRET}`,
  Authorization: `Bearer ${SECRET}`,
  "Proxy-Authorization": `Basic ${btoa(`user:${SECRET}`)}`,
  "X-API-Key": SECRET,
  "X-Api-Key-Fallback": SECRET,
  Forwarded: `for=203.0.113.9;host=${SECRET}.example;proto=https`,
  "X-Forwarded-For": "203.0.113.9",
  "X-Forwarded-Host": `${SECRET}.example`,
  "X-Forwarded-Proto": "https",
  "X-Real-IP": "203.0.113.9",
  "X-Client-Cert": SECRET,
  "X-CSRF-Token": SECRET,
};

const OPERATIONS: Array<[string, string, string | undefined]> = [
  ["GET", "/api/v1/vehicle/AB12CDE/insurance", undefined],
  ["GET", "/api/v1/compliance/AB12CDE", undefined],
  ["GET", "/api/v1/openapi.json", undefined],
  [
    "POST",
    "/api/v1/vehicle/bulk-insurance",
    JSON.stringify({ registrations: ["AB12CDE"], apiKey: SECRET }),
  ],
  [
    "POST",
    "/api/v1/vehicle/bulk-compliance",
    JSON.stringify({ registrations: ["AB12CDE"], token: SECRET }),
  ],
];

describe("what reaches the upstream", () => {
  it.each(OPERATIONS)(
    "%s %s with every credential a client can attach: only the allowlisted headers, the proxy's own key, no query, no credential anywhere",
    async (method, path, body) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });
      const response = await app.request(
        `${path}?api_key=${SECRET}&access_token=${SECRET}`,
        {
          method,
          body,
          headers: {
            ...CREDENTIALS,
            ...(body && { "Content-Type": "application/json" }),
          },
        },
      );
      expect(response.status).toBe(200);
      expect(upstream.requests).toHaveLength(1);
      const sent = upstream.requests[0]!;
      const headers = Object.fromEntries(sent.headers);
      expect(Object.keys(headers).sort()).toEqual(
        [
          "accept",
          "x-api-key",
          "x-request-id",
          ...(body ? ["content-type"] : []),
        ].sort(),
      );
      expect(headers["x-api-key"]).toBe(TEST_API_KEY);
      expect(new URL(sent.url).search).toBe("");
      const everything = `${sent.url} ${JSON.stringify(headers)} ${body ? await sent.text() : ""}`;
      expect(everything).not.toContain(SECRET);
      expect(everything).not.toContain("203.0.113.9");
      expect(headers[CLIENT_HEADER.toLowerCase()]).toBeUndefined();
    },
  );

  it("and nothing the upstream sets for the browser comes back: no Set-Cookie, no auth challenge", async () => {
    const upstream = fakeUpstream(async (request) => {
      const answer = await contractAnswer(request);
      const headers = new Headers(answer.headers);
      headers.set("Set-Cookie", `upstream=${SECRET}`);
      headers.set("WWW-Authenticate", `Bearer realm="${SECRET}"`);
      headers.set("Server", "vics-service");
      return new Response(answer.body, { status: answer.status, headers });
    });
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request("/api/v1/compliance/AB12CDE");
    expect(response.status).toBe(200);
    expect(JSON.stringify([...response.headers])).not.toContain(SECRET);
    expect(response.headers.has("Set-Cookie")).toBe(false);
    expect(response.headers.has("Server")).toBe(false);
  });
});

describe("against the real service", () => {
  it("a browser's own valid key, sent every way, is never used: the proxy's key and plan answer", async () => {
    const service = await createTestService({ sandboxDelayMs: 0 });
    try {
      const proxyKey = await service.createKey("standard", "proxy");
      const browserKey = await service.createKey("trial", "browser");
      const seen: Array<string | null> = [];
      const { app } = createTestProxy({
        apiKey: proxyKey,
        fetch: (input, init) => {
          const request = new Request(input, init);
          seen.push(request.headers.get("X-API-Key"));
          return service.app.fetch(request);
        },
      });
      const response = await app.request(
        `/api/v1/compliance/AB12CDE?api_key=${browserKey}`,
        {
          headers: {
            "X-API-Key": browserKey,
            Authorization: `Bearer ${browserKey}`,
            Cookie: `key=${browserKey}`,
          },
        },
      );
      expect(response.status).toBe(200);
      expect(seen).toEqual([proxyKey]);
      expect(response.headers.get("X-RateLimit-Limit")).toBe(
        String(PLAN_LIMITS.standard),
      );
    } finally {
      await service.close();
    }
  });
});
