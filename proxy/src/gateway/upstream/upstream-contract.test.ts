import { describe, expect, it } from "vitest";
import {
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
  problemDocument,
} from "@vics/shared";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";
import { contractAnswer } from "../../testing/contract-answer.ts";
import {
  complianceRecord,
  insuranceRecord,
} from "../../testing/fault-answers.ts";

/** Decision 017: what an upstream answer must be for the proxy to pass it on. */

const ROUTES = {
  insurance: { path: "/api/v1/vehicle/AB12CDE/insurance" },
  compliance: { path: "/api/v1/compliance/AB12CDE" },
  "bulk-insurance": { path: "/api/v1/vehicle/bulk-insurance", bulk: true },
  "bulk-compliance": { path: "/api/v1/vehicle/bulk-compliance", bulk: true },
} as const;
type Route = keyof typeof ROUTES;

const SENT = ["AB12CDE", "un51 nsd", "AB12 CD!"];

function send(app: ReturnType<typeof createTestProxy>["app"], route: Route) {
  const { path } = ROUTES[route];
  if (!("bulk" in ROUTES[route])) return app.request(path);
  return app.request(path, {
    method: "POST",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ registrations: SENT }),
  });
}

/** The route's good answer, as JSON, changed by `change`. */
async function answerWith(
  route: Route,
  change: (json: Record<string, unknown>) => unknown,
): Promise<Response> {
  const request = new Request(
    `http://upstream.test${ROUTES[route].path.slice(4)}`,
    {
      method: "bulk" in ROUTES[route] ? "POST" : "GET",
      body:
        "bulk" in ROUTES[route]
          ? JSON.stringify({ registrations: SENT })
          : undefined,
    },
  );
  const good = (await (await contractAnswer(request)).json()) as Record<
    string,
    unknown
  >;
  return Response.json(change(good));
}

async function expectOwnProblem(
  response: Response,
  status: 502 | 504,
  detail: RegExp,
) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(await response.json());
  expect(problem).toMatchObject({
    status,
    code: status === 502 ? "BAD_GATEWAY" : "GATEWAY_TIMEOUT",
  });
  expect(problem.detail).toMatch(detail);
  expect(problem.requestId).toBe(response.headers.get("X-Request-Id"));
  return problem;
}

const results = (json: Record<string, unknown>) =>
  json.results as Record<string, unknown>[];

describe.each(Object.keys(ROUTES) as Route[])("%s: a 200 answer", (route) => {
  it("that keeps the contract passes through unchanged", async () => {
    const body = await (await answerWith(route, (json) => json)).text();
    const upstream = fakeUpstream(
      () =>
        new Response(body, { headers: { "Content-Type": "application/json" } }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await send(app, route);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  const breaks: Array<[string, (json: Record<string, unknown>) => unknown]> =
    "bulk" in ROUTES[route]
      ? [
          ["counts that do not add up", (json) => ({ ...json, processed: 4 })],
          [
            "one result fewer, counts agreeing",
            (json) => ({
              ...json,
              results: results(json).slice(1),
              processed: 2,
              successful: 2,
            }),
          ],
          [
            "a result about another registration",
            (json) => ({
              ...json,
              results: [
                { ...results(json)[0], registration: "ZZ99ZZZ" },
                ...results(json).slice(1),
              ],
            }),
          ],
          [
            "an item with a wrong type",
            (json) => ({
              ...json,
              results: results(json).map((item) => ({
                ...item,
                registration: 7,
              })),
            }),
          ],
          ["no results at all", ({ results: _, ...rest }) => rest],
        ]
      : [
          [
            "a wrong type",
            (json) => ({
              ...json,
              [route === "insurance" ? "insured" : "compliant"]: "yes",
            }),
          ],
          ["a missing field", ({ registration: _, ...rest }) => rest],
          [
            "an answer about another registration",
            (json) => ({ ...json, registration: "ZZ99ZZZ" }),
          ],
          [
            "a date that is not a date",
            (json) => ({
              ...json,
              [route === "insurance" ? "lastUpdated" : "lastChecked"]:
                "yesterday",
            }),
          ],
          ["an array", () => []],
          ["null", () => null],
        ];

  it.each(breaks)(
    "with %s: the proxy's 502, logged without values",
    async (_case, change) => {
      const upstream = fakeUpstream(() => answerWith(route, change));
      const { app, log } = createTestProxy({ fetch: upstream.fetch });
      const response = await send(app, route);
      await expectOwnProblem(response, 502, /does not understand/);
      const warning = log.entries.find(
        (entry) => entry.message === "upstream answer outside the contract",
      );
      expect(warning?.fields).toMatchObject({
        status: 200,
        reason: expect.any(String),
      });
      expect(log.text()).not.toMatch(/AB12CDE|UN51NSD|ZZ99ZZZ/);
    },
  );
});

describe("the bulk items' policy extensions (decision 021)", () => {
  const lapsed = {
    number: "REF-LP08SED-2",
    insurer: "Kestrel Direct",
    validFrom: "2025-11-05",
    validTo: "2026-11-04",
    type: "Third Party, Fire and Theft",
  };
  const withItem =
    (changes: Record<string, unknown>) => (json: Record<string, unknown>) => ({
      ...json,
      results: [{ ...results(json)[0], ...changes }, ...results(json).slice(1)],
    });

  const bulkRoutes = ["bulk-insurance", "bulk-compliance"] as const;

  it.each(
    bulkRoutes.flatMap((route) => [
      [route, "a last policy", { lastPolicy: lapsed }],
      [route, "a null last policy (never insured)", { lastPolicy: null }],
      ...(route === "bulk-compliance"
        ? [[route, "the current policy", { policy: lapsed }] as const]
        : []),
    ]),
  )("%s with %s passes through unchanged", async (route, _case, changes) => {
    const body = await (await answerWith(route, withItem(changes))).text();
    const upstream = fakeUpstream(
      () =>
        new Response(body, { headers: { "Content-Type": "application/json" } }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await send(app, route);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(body);
  });

  it.each(
    bulkRoutes.flatMap((route) => [
      [route, "a last policy that is not a policy", { lastPolicy: "lapsed" }],
      [
        route,
        "a last policy without its end date",
        { lastPolicy: { ...lapsed, validTo: undefined } },
      ],
      [
        route,
        "a policy without its insurer",
        { policy: { ...lapsed, insurer: "" } },
      ],
    ]),
  )("%s with %s: the proxy's 502", async (route, _case, changes) => {
    const upstream = fakeUpstream(() => answerWith(route, withItem(changes)));
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await expectOwnProblem(await send(app, route), 502, /does not understand/);
  });
});

describe("an error answer", () => {
  const problem = (
    status: number,
    code: "INTERNAL" | "VEHICLE_NOT_FOUND" = "INTERNAL",
  ) =>
    problemDocument({
      code,
      status,
      detail: "From upstream",
      requestId: "svc-9",
    });

  it.each([
    ["502 with a problem document", 502, PROBLEM_CONTENT_TYPE, problem(502)],
    ["502 page in HTML", 502, "text/html", "<h1>502 Bad Gateway</h1>"],
    ["503 with a problem document", 503, PROBLEM_CONTENT_TYPE, problem(503)],
    ["503 in plain text", 503, "text/plain", "Service Unavailable"],
  ])(
    "%s: the proxy's own 502, unavailable",
    async (_case, status, type, body) => {
      const upstream = fakeUpstream(
        () =>
          new Response(typeof body === "string" ? body : JSON.stringify(body), {
            status,
            headers: { "Content-Type": type, "Retry-After": "5" },
          }),
      );
      const { app, log } = createTestProxy({ fetch: upstream.fetch });
      const response = await send(app, "compliance");
      const own = await expectOwnProblem(
        response,
        502,
        /unavailable at the moment/,
      );
      expect(own.requestId).not.toBe("svc-9");
      expect(response.headers.get("Retry-After")).toBeNull();
      expect(log.entries).toContainEqual(
        expect.objectContaining({
          message: "upstream unavailable",
          fields: expect.objectContaining({ status }),
        }),
      );
    },
  );

  const registerDown = problemDocument({
    code: "SOURCE_UNAVAILABLE",
    status: 503,
    detail:
      "VICS holds no record of AB12 CDE yet, and DVLA could not be asked just now.",
    requestId: "svc-9",
  });
  // nginx's @unavailable page in front of the service (deploy/nginx/vics.conf), and the
  // service's own database-down 503: the same shape as the register's but for the code.
  const nginxUnavailable = problemDocument({
    code: "SERVICE_UNAVAILABLE",
    status: 503,
    detail:
      "VICS cannot answer right now: no replica is answering. Nothing was done; retry in 5 seconds.",
    requestId: "svc-9",
  });

  it.each([
    [
      "an nginx-style 503 (SERVICE_UNAVAILABLE with Retry-After)",
      nginxUnavailable,
      { "Retry-After": "5" },
    ],
    ["a SOURCE_UNAVAILABLE 503 without Retry-After", registerDown, {}],
    [
      "a SOURCE_UNAVAILABLE 503 that is not a problem document's media type",
      registerDown,
      { "Content-Type": "text/html", "Retry-After": "30" },
    ],
  ])(
    "%s: the proxy's own 502, as decision 017 says",
    async (_case, body, headers) => {
      const upstream = fakeUpstream(
        () =>
          new Response(JSON.stringify(body), {
            status: 503,
            headers: { "Content-Type": PROBLEM_CONTENT_TYPE, ...headers },
          }),
      );
      const { app, log } = createTestProxy({ fetch: upstream.fetch });
      const response = await send(app, "compliance");
      const own = await expectOwnProblem(
        response,
        502,
        /unavailable at the moment/,
      );
      expect(own.requestId).not.toBe("svc-9");
      expect(response.headers.get("Retry-After")).toBeNull();
      expect(log.entries).toContainEqual(
        expect.objectContaining({
          message: "upstream unavailable",
          fields: expect.objectContaining({ status: 503 }),
        }),
      );
    },
  );

  it("the service's own 503 to retry (a live register down): passed on with its Retry-After and words", async () => {
    const upstream = fakeUpstream(
      () =>
        new Response(JSON.stringify(registerDown), {
          status: 503,
          headers: {
            "Content-Type": PROBLEM_CONTENT_TYPE,
            "Retry-After": "30",
          },
        }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await send(app, "compliance");
    expect(response.status).toBe(503);
    expect(response.headers.get("Retry-After")).toBe("30");
    expect(await response.json()).toMatchObject({
      code: "SOURCE_UNAVAILABLE",
      detail: registerDown.detail,
    });
  });

  it("504 from something in front of the service: the proxy's own 504", async () => {
    const upstream = fakeUpstream(
      () => new Response("Gateway Timeout", { status: 504 }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await expectOwnProblem(
      await send(app, "bulk-insurance"),
      504,
      /did not answer in time/,
    );
  });

  it.each([
    ["a 500 that is JSON but no problem document", 500, { error: "boom" }],
    ["a 404 problem document that says 500", 404, problem(500)],
    ["a 400 with an unknown code", 400, { ...problem(400), code: "TEAPOT" }],
    ["a 501", 501, problem(501)],
    ["a 201", 201, insuranceRecord("AB12CDE")],
  ])("%s: 502, outside the contract", async (_case, status, body) => {
    const upstream = fakeUpstream(
      () =>
        new Response(JSON.stringify(body), {
          status,
          headers: {
            "Content-Type":
              status < 300 ? "application/json" : PROBLEM_CONTENT_TYPE,
          },
        }),
    );
    const { app, log } = createTestProxy({ fetch: upstream.fetch });
    await expectOwnProblem(
      await send(app, "insurance"),
      502,
      /does not understand/,
    );
    expect(log.entries.map((entry) => entry.message)).toContain(
      "upstream answer outside the contract",
    );
  });

  it("the service's own 500 problem document passes through, as the contract documents it", async () => {
    const upstream = fakeUpstream(
      () =>
        new Response(JSON.stringify(problem(500)), {
          status: 500,
          headers: { "Content-Type": PROBLEM_CONTENT_TYPE },
        }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await send(app, "bulk-compliance");
    expect(response.status).toBe(500);
    expect(await response.json()).toEqual(problem(500));
  });

  it("a 404 problem document for an unknown vehicle passes through", async () => {
    const upstream = fakeUpstream(
      () =>
        new Response(JSON.stringify(problem(404, "VEHICLE_NOT_FOUND")), {
          status: 404,
          headers: { "Content-Type": PROBLEM_CONTENT_TYPE },
        }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await send(app, "insurance");
    expect(response.status).toBe(404);
    expect(ProblemSchema.parse(await response.json()).code).toBe(
      "VEHICLE_NOT_FOUND",
    );
  });
});

it("single answers: a registration asked in another spelling is matched in its normal form", async () => {
  const upstream = fakeUpstream(() =>
    Response.json(complianceRecord("AB12CDE")),
  );
  const { app } = createTestProxy({ fetch: upstream.fetch });
  const response = await app.request("/api/v1/compliance/ab12-cde");
  expect(response.status).toBe(200);
});
