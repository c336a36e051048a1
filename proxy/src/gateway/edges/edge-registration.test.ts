import { describe, expect, it } from "vitest";
import {
  PLAN_LIMITS,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  parseRegistration,
} from "@vics/shared";
import { createTestService } from "@vics/service/testing";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

/**
 * The proxy's edges: a registration in a path is parsed by the shared parser and
 * only its normalised form goes upstream; an invalid one is the proxy's own 400.
 */

async function expectInvalidRegistration(response: Response) {
  expect(response.status).toBe(400);
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(await response.json());
  expect(problem.code).toBe("INVALID_REGISTRATION");
  return problem;
}

describe("a registration in the path that is not one", () => {
  // As sent on the wire: what a browser, curl or an attacker's page can put in a path.
  it.each([
    // The two paths of the issue: an upstream behind a path-decoding server saw a traversal.
    ["an encoded traversal", "/api/v1/vehicle/..%2F..%2Fadmin/insurance"],
    ["a traversal after a plate", "/api/v1/compliance/AB12CDE%2F..%2F..%2Fx"],
    ["double encoding", "/api/v1/compliance/..%252F..%252Fadmin"],
    [
      "double encoding after a plate",
      "/api/v1/compliance/AB12CDE%252F..%252Fx",
    ],
    ["encoded backslashes", "/api/v1/vehicle/..%5C..%5Cadmin/insurance"],
    ["encoded dots and slash", "/api/v1/compliance/%2E%2E%2F%2E%2E%2Fadmin"],
    ["a NUL byte", "/api/v1/compliance/AB12CDE%00"],
    ["a NUL byte inside", "/api/v1/vehicle/AB12%00CDE/insurance"],
    ["CR LF and a header", "/api/v1/compliance/AB12CDE%0D%0AX-Injected:%201"],
    ["a query in the segment", "/api/v1/compliance/AB%3Fx%3D1"],
    ["a fragment in the segment", "/api/v1/compliance/AB12CDE%23x"],
    ["a path parameter", "/api/v1/compliance/AB12CDE;x=1"],
    ["a broken escape", "/api/v1/compliance/AB%ZZ12"],
    ["an overlong UTF-8 slash", "/api/v1/compliance/..%C0%AF..%C0%AFadmin"],
    ["a full-width E (Ｅ)", "/api/v1/compliance/AB12CD%EF%BC%A5"],
    ["Cyrillic А, В, С, Е", "/api/v1/compliance/%D0%90%D0%9212%D0%A1D%D0%95"],
    [
      "a full-width slash (／)",
      "/api/v1/compliance/AB12CDE%EF%BC%8F..%EF%BC%8Fx",
    ],
    ["10,000 characters", `/api/v1/compliance/${"A".repeat(10_000)}`],
    ["punctuation", "/api/v1/vehicle/NOT-A-PLATE!/insurance"],
  ])(
    "%s: the proxy's 400 INVALID_REGISTRATION, nothing upstream",
    async (_case, path) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });
      await expectInvalidRegistration(await app.request(path));
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("is refused in the shared parser's words, the service's own", async () => {
    const { app } = createTestProxy({ fetch: fakeUpstream().fetch });
    const problem = await expectInvalidRegistration(
      await app.request("/api/v1/compliance/..%2F..%2Fadmin"),
    );
    const parsed = parseRegistration("../../admin");
    expect(parsed.ok).toBe(false);
    if (!parsed.ok) expect(problem.detail).toBe(parsed.message);
  });
});

describe("a registration in the path that is one", () => {
  it.each([
    ["/api/v1/compliance/ab12-cde", "/v1/compliance/AB12CDE"],
    ["/api/v1/compliance/%20AB12%20CDE%20", "/v1/compliance/AB12CDE"],
    ["/api/v1/compliance/ab12%09cde", "/v1/compliance/AB12CDE"],
    ["/api/v1/vehicle/a123-bcd/insurance", "/v1/vehicle/A123BCD/insurance"],
  ])("%s goes upstream only as %s", async (path, upstreamPath) => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    expect((await app.request(path)).status).toBe(200);
    expect(upstream.requests.map((r) => new URL(r.url).pathname)).toEqual([
      upstreamPath,
    ]);
  });
});

describe("through the proxy to the real service", () => {
  it("an invalid registration costs the key nothing: the window's count is unchanged", async () => {
    const service = await createTestService({ sandboxDelayMs: 0 });
    try {
      const apiKey = await service.createKey("trial", "proxy");
      const upstreamPaths: string[] = [];
      const { app } = createTestProxy({
        apiKey,
        fetch: (input, init) => {
          const request = new Request(input, init);
          upstreamPaths.push(new URL(request.url).pathname);
          return service.app.fetch(request);
        },
      });
      for (const path of [
        "/api/v1/vehicle/..%2F..%2Fadmin/insurance",
        "/api/v1/compliance/AB12CDE%2F..%2F..%2Fx",
        "/api/v1/compliance/..%252F..%252Fadmin",
      ])
        await expectInvalidRegistration(await app.request(path));
      // Three refusals, then one check: the trial key's first request of its window.
      const check = await app.request("/api/v1/compliance/ab12-cde");
      expect(check.status).toBe(200);
      expect(check.headers.get("X-RateLimit-Remaining")).toBe(
        String(PLAN_LIMITS.trial - 1),
      );
      expect(upstreamPaths).toEqual(["/v1/compliance/AB12CDE"]);
    } finally {
      await service.close();
    }
  });
});
