import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "@vics/shared";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

describe("forwarded operations", () => {
  it.each([
    ["/api/v1/vehicle/AB12CDE/insurance", "/v1/vehicle/AB12CDE/insurance"],
    ["/api/v1/compliance/AB12CDE", "/v1/compliance/AB12CDE"],
    ["/api/v1/openapi.json", "/v1/openapi.json"],
    // Only the normalised registration goes on; an invalid one is the proxy's own 400
    // (edge-registration.test.ts).
    ["/api/v1/vehicle/AB12%20CDE/insurance", "/v1/vehicle/AB12CDE/insurance"],
    ["/api/v1/compliance/ab12-cde", "/v1/compliance/AB12CDE"],
  ])("GET %s goes to the upstream's %s", async (path, upstreamPath) => {
    // Each route's own contract answer (decision 017: the proxy checks it).
    const upstream = fakeUpstream();
    const { app } = createTestProxy({
      fetch: upstream.fetch,
      upstreamUrl: "http://service.test:3001/",
    });
    const response = await app.request(path);
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.method).toBe("GET");
    expect(upstream.requests[0]?.url).toBe(
      `http://service.test:3001${upstreamPath}`,
    );
  });

  it.each([
    ["/api/v1/vehicle/bulk-insurance", "/v1/vehicle/bulk-insurance"],
    ["/api/v1/vehicle/bulk-compliance", "/v1/vehicle/bulk-compliance"],
  ])("POST %s goes to the upstream's %s", async (path, upstreamPath) => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(path, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ registrations: ["AB12CDE"] }),
    });
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
    expect(upstream.requests[0]?.method).toBe("POST");
    expect(upstream.requests[0]?.url).toBe(
      `http://upstream.test${upstreamPath}`,
    );
  });

  it("keeps a path prefix of UPSTREAM_URL and drops the browser's query string", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({
      fetch: upstream.fetch,
      upstreamUrl: "http://gateway.test/vics",
    });
    await app.request("/api/v1/compliance/AB12CDE?debug=1");
    expect(upstream.requests[0]?.url).toBe(
      "http://gateway.test/vics/v1/compliance/AB12CDE",
    );
  });
});

describe("everything else under /api, and the service's paths under /v1", () => {
  it.each([
    // Only the two bulk paths are new: nothing beside or below them.
    ["POST", "/api/v1/vehicle/bulk"],
    ["POST", "/api/v1/vehicle/bulk-check"],
    ["POST", "/api/v1/vehicle/bulk-insurance/extra"],
    ["POST", "/api/v1/vehicle/bulk-compliance/"],
    ["POST", "/api/v1/bulk-insurance"],
    ["GET", "/api"],
    ["GET", "/api/"],
    ["GET", "/api/v1"],
    ["GET", "/api/v1/keys"],
    ["DELETE", "/api/v1/keys/1"],
    ["GET", "/api/v2/compliance/AB12CDE"],
    ["GET", "/api/v1/vehicle/AB12CDE"],
    ["GET", "/api/v1/compliance/AB12CDE/extra"],
    // URL normalisation turns these into /api/v1/ and /api/v1/vehicle/insurance.
    ["GET", "/api/v1/compliance/%2E%2E"],
    ["GET", "/api/v1/vehicle/%2E/insurance"],
    ["PUT", "/api/anything/at/all"],
    // What a client that ignores the document's server calls: the service's own paths.
    ["GET", "/v1/vehicle/AB12CDE/insurance"],
    ["GET", "/v1/compliance/AB12CDE"],
    ["GET", "/v1/openapi.json"],
    ["POST", "/v1/vehicle/bulk-insurance"],
    ["POST", "/v1/vehicle/bulk-compliance"],
    ["POST", "/API/V1/vehicle/bulk-insurance"],
    ["GET", "/v1"],
    ["GET", "/v1/"],
    ["GET", "/API/v1/compliance/AB12CDE"],
    ["GET", "/Api/V1/openapi.json"],
    ["GET", "/V1/compliance/AB12CDE"],
    ["GET", "/api/v1/compliance/AB12CDE/"],
  ])(
    "%s %s is a 404 problem from the proxy, never forwarded",
    async (method, path) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });
      const response = await app.request(path, { method });
      expect(response.status).toBe(404);
      expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
      const problem = ProblemSchema.parse(await response.json());
      expect(problem).toMatchObject({ status: 404, code: "NOT_FOUND" });
      expect(problem.detail).toContain("under /api/v1");
      expect(problem.requestId).toBe(response.headers.get("X-Request-Id"));
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it.each([
    ["POST", "/api/v1/vehicle/AB12CDE/insurance", "GET, HEAD"],
    ["PUT", "/api/v1/compliance/AB12CDE", "GET, HEAD"],
    ["DELETE", "/api/v1/compliance/AB12CDE", "GET, HEAD"],
    ["PATCH", "/api/v1/openapi.json", "GET, HEAD"],
    ["GET", "/api/v1/vehicle/bulk-insurance", "POST"],
    ["HEAD", "/api/v1/vehicle/bulk-insurance", "POST"],
    ["PUT", "/api/v1/vehicle/bulk-insurance", "POST"],
    ["GET", "/api/v1/vehicle/bulk-compliance", "POST"],
    ["DELETE", "/api/v1/vehicle/bulk-compliance", "POST"],
  ])(
    "%s %s is a 405 problem with Allow: %s, never forwarded",
    async (method, path, allow) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });
      const response = await app.request(path, { method });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe(allow);
      expect(upstream.requests).toHaveLength(0);
      if (method === "HEAD") return;
      const problem = ProblemSchema.parse(await response.json());
      expect(problem).toMatchObject({
        status: 405,
        code: "METHOD_NOT_ALLOWED",
        detail: `This operation only answers ${allow} requests.`,
      });
    },
  );
});
