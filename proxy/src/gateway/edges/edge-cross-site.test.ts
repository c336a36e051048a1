import { describe, expect, it } from "vitest";
import {
  CLIENT_HEADER,
  PLAN_LIMITS,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
} from "@vics/shared";
import { createTestService } from "@vics/service/testing";
import {
  contractAnswer,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";

/**
 * A cross-site form, image or script cannot spend the key's quota; no CORS. Each
 * request below carries the headers Chromium sends for it (Fetch Metadata, Origin), sent to
 * the proxy itself, which adds nothing (`proxy`, not `app`).
 */

const BULK_BODY = JSON.stringify({ registrations: ["AB12CDE"] });
const EVIL = "https://evil.example";

interface Attack {
  path: string;
  init: RequestInit;
}

const get = (path: string, headers: Record<string, string>): Attack => ({
  path,
  init: { headers },
});
const post = (
  path: string,
  contentType: string,
  headers: Record<string, string>,
  body = BULK_BODY,
): Attack => ({
  path,
  init: {
    method: "POST",
    body,
    headers: { "Content-Type": contentType, ...headers },
  },
});

/** What a page on another site can make a browser send, with no help from the proxy. */
const CROSS_SITE: Array<[string, Attack]> = [
  [
    "a form POST, text/plain (JSON smuggled in a form field)",
    post("/api/v1/vehicle/bulk-insurance", "text/plain", {
      Origin: EVIL,
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "navigate",
      "Sec-Fetch-Dest": "document",
    }),
  ],
  [
    "a form POST, form-urlencoded",
    post(
      "/api/v1/vehicle/bulk-compliance",
      "application/x-www-form-urlencoded",
      {
        Origin: EVIL,
        "Sec-Fetch-Site": "cross-site",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Dest": "document",
      },
      "registrations=AB12CDE",
    ),
  ],
  [
    "a form POST, multipart",
    post(
      "/api/v1/vehicle/bulk-insurance",
      "multipart/form-data; boundary=x",
      {
        Origin: EVIL,
        "Sec-Fetch-Site": "cross-site",
        "Sec-Fetch-Mode": "navigate",
        "Sec-Fetch-Dest": "iframe",
      },
      '--x\r\nContent-Disposition: form-data; name="registrations"\r\n\r\nAB12CDE\r\n--x--\r\n',
    ),
  ],
  [
    "an <img>",
    get("/api/v1/vehicle/AB12CDE/insurance", {
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "image",
    }),
  ],
  [
    "a <script>",
    get("/api/v1/compliance/AB12CDE", {
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "script",
    }),
  ],
  [
    "a <link rel=prefetch> of the OpenAPI document",
    get("/api/v1/openapi.json", {
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "empty",
    }),
  ],
  [
    "a top-level link (navigation)",
    get("/api/v1/compliance/AB12CDE", {
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "navigate",
      "Sec-Fetch-Dest": "document",
    }),
  ],
  [
    "a no-cors fetch()",
    post("/api/v1/vehicle/bulk-insurance", "text/plain", {
      Origin: EVIL,
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "no-cors",
      "Sec-Fetch-Dest": "empty",
    }),
  ],
  [
    // Only after a preflight the proxy never approves; sent anyway, it is still refused.
    "a cors fetch() carrying the client header",
    post("/api/v1/vehicle/bulk-insurance", "application/json", {
      Origin: EVIL,
      [CLIENT_HEADER]: "web",
      "Sec-Fetch-Site": "cross-site",
      "Sec-Fetch-Mode": "cors",
      "Sec-Fetch-Dest": "empty",
    }),
  ],
  [
    "a page on another port of this host (same-site)",
    post("/api/v1/vehicle/bulk-insurance", "application/json", {
      Origin: "http://localhost:5173",
      [CLIENT_HEADER]: "web",
      "Sec-Fetch-Site": "same-site",
      "Sec-Fetch-Mode": "cors",
    }),
  ],
  [
    "a sandboxed frame or a file:// page (Origin: null)",
    post("/api/v1/vehicle/bulk-insurance", "application/json", {
      Origin: "null",
      [CLIENT_HEADER]: "web",
    }),
  ],
  [
    "a browser without Fetch Metadata, from another origin",
    post("/api/v1/vehicle/bulk-insurance", "application/json", {
      Origin: EVIL,
      [CLIENT_HEADER]: "web",
    }),
  ],
  [
    "an unknown Sec-Fetch-Site value",
    get("/api/v1/compliance/AB12CDE", {
      [CLIENT_HEADER]: "web",
      "Sec-Fetch-Site": "cross-origin",
    }),
  ],
];

/** What the web app's own fetch sends (api-client.ts), as Chromium adds to it. */
const OWN_PAGE = {
  [CLIENT_HEADER]: "web",
  "Sec-Fetch-Site": "same-origin",
  "Sec-Fetch-Mode": "cors",
  "Sec-Fetch-Dest": "empty",
};

function accessControlHeaders(response: Response): string[] {
  return [...response.headers.keys()].filter((name) =>
    name.toLowerCase().startsWith("access-control-"),
  );
}

async function expectForbidden(response: Response, detail: RegExp) {
  expect(response.status).toBe(403);
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(await response.json());
  expect(problem).toMatchObject({ status: 403, code: "FORBIDDEN" });
  expect(problem.detail).toMatch(detail);
  expect(accessControlHeaders(response)).toEqual([]);
}

describe("a request from another site", () => {
  it.each(CROSS_SITE)(
    "%s: 403 FORBIDDEN, nothing upstream, no CORS header",
    async (_case, { path, init }) => {
      const upstream = fakeUpstream();
      const { proxy } = createTestProxy({ fetch: upstream.fetch });
      await expectForbidden(
        await proxy.request(path, init),
        /another site|X-VICS-Client/,
      );
      expect(upstream.requests).toHaveLength(0);
    },
  );
});

describe("the client header on every /api request", () => {
  it.each([
    ["GET", "/api/v1/vehicle/AB12CDE/insurance"],
    ["GET", "/api/v1/compliance/AB12CDE"],
    ["GET", "/api/v1/openapi.json"],
    ["HEAD", "/api/v1/compliance/AB12CDE"],
    ["POST", "/api/v1/vehicle/bulk-insurance"],
    ["POST", "/api/v1/vehicle/bulk-compliance"],
    ["GET", "/api/v1/not-a-route"],
  ])(
    "%s %s without it: 403 that names it, nothing upstream",
    async (method, path) => {
      const upstream = fakeUpstream();
      const { proxy } = createTestProxy({ fetch: upstream.fetch });
      const response = await proxy.request(path, {
        method,
        ...(method === "POST" && {
          body: BULK_BODY,
          headers: { "Content-Type": "application/json" },
        }),
      });
      expect(response.status).toBe(403);
      if (method !== "HEAD")
        await expectForbidden(
          response,
          new RegExp(`${CLIENT_HEADER}: my-script`),
        );
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it.each(["", "   "])("an empty value (%j) is no header", async (value) => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch });
    const response = await proxy.request("/api/v1/compliance/AB12CDE", {
      headers: { [CLIENT_HEADER]: value },
    });
    expect(response.status).toBe(403);
    expect(upstream.requests).toHaveLength(0);
  });

  it("with it, the web app's own requests and a program's go through; the header itself is not forwarded", async () => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch });
    const fromPage = await proxy.request("/api/v1/vehicle/bulk-insurance", {
      method: "POST",
      body: BULK_BODY,
      headers: {
        ...OWN_PAGE,
        Origin: "http://localhost",
        "Content-Type": "application/json",
      },
    });
    expect(fromPage.status).toBe(200);
    // A script or curl sends no Fetch Metadata and no Origin.
    const fromProgram = await proxy.request("/api/v1/compliance/AB12CDE", {
      headers: { [CLIENT_HEADER]: "nightly-report" },
    });
    expect(fromProgram.status).toBe(200);
    // The user's own action (a bookmark) is "none".
    const typed = await proxy.request("/api/v1/compliance/AB12CDE", {
      headers: { [CLIENT_HEADER]: "web", "Sec-Fetch-Site": "none" },
    });
    expect(typed.status).toBe(200);
    expect(upstream.requests).toHaveLength(3);
    for (const request of upstream.requests)
      expect(request.headers.has(CLIENT_HEADER)).toBe(false);
  });

  it("is not asked of the web app's pages and files, which a link from anywhere may open", async () => {
    const { proxy } = createTestProxy({ fetch: fakeUpstream().fetch });
    const response = await proxy.request("/vehicle/AB12CDE", {
      headers: { "Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate" },
    });
    // 503: the test's web root holds no built app; the point is that it is not a 403.
    expect(response.status).toBe(503);
  });
});

describe("Origin against PUBLIC_ORIGIN", () => {
  const publicOrigin = "https://vics.example.org";
  const request = (origin: string) =>
    new Request(`${publicOrigin}/api/v1/vehicle/bulk-insurance`, {
      method: "POST",
      body: BULK_BODY,
      headers: {
        ...OWN_PAGE,
        Origin: origin,
        "Content-Type": "application/json",
      },
    });

  it.each([
    ["http://vics.example.org", "another scheme"],
    ["https://vics.example.org:8443", "another port"],
    ["https://vics.example.org.evil.example", "a longer name"],
    ["https://evil.example", "another site"],
  ])("refuses %s (%s)", async (origin) => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch, publicOrigin });
    await expectForbidden(await proxy.request(request(origin)), /another site/);
    expect(upstream.requests).toHaveLength(0);
  });

  it("accepts the public origin itself", async () => {
    const upstream = fakeUpstream();
    const { proxy } = createTestProxy({ fetch: upstream.fetch, publicOrigin });
    const response = await proxy.request(request(publicOrigin));
    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(1);
  });
});

describe("no CORS", () => {
  it.each([
    "/api/v1/vehicle/AB12CDE/insurance",
    "/api/v1/compliance/AB12CDE",
    "/api/v1/openapi.json",
    "/api/v1/vehicle/bulk-insurance",
    "/api/v1/vehicle/bulk-compliance",
    "/",
  ])(
    "a preflight for %s gets no approval: no Access-Control-* header, nothing upstream",
    async (path) => {
      const upstream = fakeUpstream();
      const { proxy } = createTestProxy({ fetch: upstream.fetch });
      const response = await proxy.request(path, {
        method: "OPTIONS",
        headers: {
          Origin: EVIL,
          "Access-Control-Request-Method": "POST",
          "Access-Control-Request-Headers": `content-type,${CLIENT_HEADER.toLowerCase()}`,
          "Sec-Fetch-Mode": "cors",
          "Sec-Fetch-Site": "cross-site",
        },
      });
      expect(accessControlHeaders(response)).toEqual([]);
      // A preflight passes only with a 2xx that names the origin; this is neither.
      expect(response.ok).toBe(false);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("passes no Access-Control-* header from the upstream, on any answer", async () => {
    const upstream = fakeUpstream(async (request) => {
      const answer = await contractAnswer(request);
      const headers = new Headers(answer.headers);
      headers.set("Access-Control-Allow-Origin", "*");
      headers.set("Access-Control-Allow-Credentials", "true");
      return new Response(answer.body, { status: answer.status, headers });
    });
    const { app } = createTestProxy({ fetch: upstream.fetch });
    for (const response of [
      await app.request("/api/v1/compliance/AB12CDE"),
      await app.request("/api/v1/openapi.json"),
      await app.request("/api/v1/not-a-route"),
      await app.request("/api/v1/compliance/AB12CDE", { method: "DELETE" }),
      await app.request("/"),
    ])
      expect(accessControlHeaders(response)).toEqual([]);
    expect(upstream.requests).toHaveLength(2);
  });
});

describe("against the real service", () => {
  it("every attack above costs the key nothing: the next check is the window's first", async () => {
    const service = await createTestService({ sandboxDelayMs: 0 });
    try {
      const apiKey = await service.createKey("trial", "proxy");
      let upstreamCalls = 0;
      const { proxy } = createTestProxy({
        apiKey,
        fetch: (input, init) => {
          upstreamCalls++;
          return service.app.fetch(new Request(input, init));
        },
      });
      // More attacks than the trial plan's whole window of 10.
      for (const [, { path, init }] of CROSS_SITE)
        expect((await proxy.request(path, init)).status).toBe(403);
      expect(upstreamCalls).toBe(0);
      const check = await proxy.request("/api/v1/compliance/AB12CDE", {
        headers: OWN_PAGE,
      });
      expect(check.status).toBe(200);
      expect(check.headers.get("X-RateLimit-Remaining")).toBe(
        String(PLAN_LIMITS.trial - 1),
      );
    } finally {
      await service.close();
    }
  });
});
