import { describe, expect, it } from "vitest";
import { z } from "zod";
import { CLIENT_HEADER, OWN_LIMIT_HEADERS } from "@vics/shared";
import {
  createTestProxy,
  fakeUpstream,
  TEST_API_KEY,
} from "../../testing/index.ts";
import { createMemoryUserLimiter } from "../../team/limits/user-limits.ts";
import { singleAnswer } from "../upstream/upstream-contract.ts";
import { FORWARDED_OPERATIONS } from "./forwarded-operations.ts";
import { forwardedOperation } from "./operation.ts";

// Adding a forwarded check is one entry and its answer's schema: this one exists only here,
// and no other file knows it. It borrows an existing check's audit action, because a real
// new check adds its own name to CHECK_ACTIONS (@vics/shared), which the audit log's schema reads.
const MileageSchema = z.object({
  registration: z.string(),
  miles: z.number().int(),
});

const MILEAGE = forwardedOperation({
  method: "get",
  route: "/v1/mileage/:registration",
  upstreamPath: (registration) => `/v1/mileage/${registration}`,
  role: "fleet",
  answer: singleAnswer(MileageSchema),
  check: {
    action: "check.compliance",
    // Dearer than a plain check, to show the cost is the declaration's.
    lookups: () => 3,
    verdict: (answer) =>
      answer.miles < 100_000 ? "compliant" : "not-compliant",
  },
});

const MILEAGE_JSON = { "Content-Type": "application/json" };

/** The service stand-in: AB12CDE has a mileage, XY99ZZZ an answer outside the schema. */
function mileageUpstream() {
  return fakeUpstream((request) => {
    const { pathname } = new URL(request.url);
    if (pathname === "/v1/mileage/AB12CDE")
      return Response.json({ registration: "AB12CDE", miles: 42_000 });
    if (pathname === "/v1/mileage/XY99ZZZ")
      return new Response(JSON.stringify({ registration: "XY99ZZZ" }), {
        headers: MILEAGE_JSON,
      });
    return new Response("{}", { status: 500, headers: MILEAGE_JSON });
  });
}

function proxyWithMileage(limit = 50) {
  const upstream = mileageUpstream();
  const proxy = createTestProxy({
    fetch: upstream.fetch,
    role: "fleet",
    forwarded: [...FORWARDED_OPERATIONS, MILEAGE],
    limiter: createMemoryUserLimiter({
      staff: limit,
      fleet: limit,
      admin: limit,
    }),
  });
  return { ...proxy, upstream };
}

describe("a forwarded check added with one declaration", () => {
  it("is forwarded with the key and answered as the service answered it", async () => {
    const { app, upstream } = proxyWithMileage();
    const response = await app.request("/api/v1/mileage/ab12 cde");
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({
      registration: "AB12CDE",
      miles: 42_000,
    });
    expect(upstream.requests.map(({ url }) => url)).toEqual([
      "http://upstream.test/v1/mileage/AB12CDE",
    ]);
    expect(upstream.requests[0]?.headers.get("X-API-Key")).toBe(TEST_API_KEY);
  });

  it("is audited with the verdict its parsed answer gives", async () => {
    const { app, store } = proxyWithMileage();
    await app.request("/api/v1/mileage/AB12CDE");
    const [event] = await store.searchAudit({ limit: 5 });
    expect(event).toMatchObject({
      action: "check.compliance",
      registrations: ["AB12CDE"],
      outcome: "200",
      detail: { verdict: "compliant" },
    });
  });

  it("is judged by its own schema: an answer outside it is the proxy's 502", async () => {
    const { app, store } = proxyWithMileage();
    const response = await app.request("/api/v1/mileage/XY99ZZZ");
    expect(response.status).toBe(502);
    const [event] = await store.searchAudit({ limit: 5 });
    expect(event).toMatchObject({ outcome: "502" });
  });

  it("costs its declared look-ups of its user's own limit, and over it never goes upstream", async () => {
    const { app, upstream } = proxyWithMileage(5);
    const first = await app.request("/api/v1/mileage/AB12CDE");
    expect(first.status).toBe(200);
    expect(first.headers.get(OWN_LIMIT_HEADERS.remaining)).toBe("2");
    const second = await app.request("/api/v1/mileage/AB12CDE");
    expect(second.status).toBe(429);
    expect(upstream.requests).toHaveLength(1);
  });

  it("needs its declared role", async () => {
    const { anonymous, signIn, upstream } = proxyWithMileage();
    const response = await anonymous.request("/api/v1/mileage/AB12CDE", {
      headers: {
        Cookie: await signIn("staff"),
        [CLIENT_HEADER]: "web",
      },
    });
    expect(response.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it("takes no body, and answers another method with its Allow", async () => {
    const { app, upstream } = proxyWithMileage();
    const withBody = await app.request("/api/v1/mileage/AB12CDE", {
      method: "GET",
      headers: { "Content-Length": "2" },
    });
    expect(withBody.status).toBe(413);
    const deleted = await app.request("/api/v1/mileage/AB12CDE", {
      method: "DELETE",
    });
    expect(deleted.status).toBe(405);
    expect(deleted.headers.get("Allow")).toBe("GET, HEAD");
    expect(upstream.requests).toHaveLength(0);
  });
});
