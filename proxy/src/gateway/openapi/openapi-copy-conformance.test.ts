// The proxy's copy of the OpenAPI document against what the proxy answers, in front of the real
// service: a corpus of requests, one or more for every operation and every status the copy
// gives it (the proxy's own refusals, the service's answers passed on, an upstream down or
// late), each checked by Prism's validators as `prism proxy --errors` would check it
// (@vics/shared/testing/openapi-conformance). An operation or status added to the copy without
// a request here fails the coverage test.
import {
  API_KEY_HEADER,
  BULK_MAX_BODY_BYTES,
  CLIENT_HEADER,
  PLAN_LIMITS,
  PROBLEM_CONTENT_TYPE,
  PROXY_PREFIX,
  REFERENCE_REGISTRATIONS,
} from "@vics/shared";
import {
  checkConformance,
  type ConformanceCase,
  documentedAnswers,
} from "@vics/shared/testing/openapi-conformance";
import {
  createTestService,
  failingStore,
  registerDown,
  type TestService,
  type TestServiceOptions,
} from "@vics/service/testing";
import { afterEach, describe, expect, it } from "vitest";
import { createMemoryUserLimiter } from "../../team/limits/user-limits.ts";
import { createTestProxy } from "../../testing/index.ts";

const services: TestService[] = [];
afterEach(async () => {
  await Promise.all(services.splice(0).map((service) => service.close()));
});

async function service(options: TestServiceOptions = {}) {
  const started = await createTestService(options);
  services.push(started);
  return started;
}

/** A proxy in front of `upstream`, with its key, and the cookies of an admin and a staff user. */
async function proxyTo(
  upstream: (request: Request) => Response | Promise<Response>,
  apiKey: string,
  options: Parameters<typeof createTestProxy>[0] = {},
) {
  const test = createTestProxy({
    apiKey,
    fetch: async (input, init) => upstream(new Request(input, init)),
    ...options,
  });
  const send = async (request: Request) => test.anonymous.fetch(request);
  return {
    send,
    admin: await test.cookie(),
    staff: await test.signIn("staff"),
  };
}

const KNOWN = REFERENCE_REGISTRATIONS[0];
const BULK_BODY = JSON.stringify({ registrations: [KNOWN, "ZZ99ZZZ"] });

async function corpus() {
  const vics = await service();
  const key = await vics.createKey("internal", "proxy");
  const main = await proxyTo((request) => vics.app.fetch(request), key);
  // A key spent to its plan's last request: the service's 429, passed on.
  const spent = await vics.createKey("trial", "spent");
  for (let sent = 0; sent < PLAN_LIMITS.trial; sent += 1)
    await vics.app.fetch(
      new Request("http://service.test/v1/openapi.json", {
        headers: { [API_KEY_HEADER]: spent },
      }),
    );
  const overPlan = await proxyTo((request) => vics.app.fetch(request), spent);
  // A user's own limit of one look-up a minute: the proxy's own 429.
  const tight = await proxyTo((request) => vics.app.fetch(request), key, {
    limiter: createMemoryUserLimiter({ staff: 1, fleet: 1, admin: 1 }),
  });
  // A service whose store fails: its 500, passed on.
  const failing = await service({ wrapStore: failingStore });
  const broken = await proxyTo(
    (request) => failing.app.fetch(request),
    await failing.createKey("internal", "proxy"),
  );
  // A service whose live register is down: a vehicle it never saw is its 503, passed on.
  const downService = await service({
    sandbox: false,
    sources: registerDown(),
  });
  const registerIsDown = await proxyTo(
    (request) => downService.app.fetch(request),
    await downService.createKey("internal", "proxy"),
  );
  const unreachable = await proxyTo(
    () => Promise.reject(new TypeError("fetch failed")),
    key,
  );
  const late = await proxyTo(
    () =>
      new Response(JSON.stringify({ status: 504 }), {
        status: 504,
        headers: { "Content-Type": PROBLEM_CONTENT_TYPE },
      }),
    key,
  );

  const web = (cookie: string) => ({ Cookie: cookie, [CLIENT_HEADER]: "web" });
  const json = { "Content-Type": "application/json" };
  type Operation = {
    method: "get" | "post";
    template: string;
    path: string;
    body?: string;
  };
  const operations: Operation[] = [
    {
      method: "get",
      template: "/v1/vehicle/{registration}/insurance",
      path: `/v1/vehicle/${KNOWN}/insurance`,
    },
    {
      method: "get",
      template: "/v1/compliance/{registration}",
      path: `/v1/compliance/${KNOWN}`,
    },
    {
      method: "post",
      template: "/v1/vehicle/bulk-insurance",
      path: "/v1/vehicle/bulk-insurance",
      body: BULK_BODY,
    },
    {
      method: "post",
      template: "/v1/vehicle/bulk-compliance",
      path: "/v1/vehicle/bulk-compliance",
      body: BULK_BODY,
    },
    {
      method: "get",
      template: "/v1/openapi.json",
      path: "/v1/openapi.json",
    },
  ];

  const cases: ConformanceCase[] = [];
  for (const { method, template, path, body } of operations) {
    const headers = { ...web(main.admin), ...(body && json) };
    const name = (what: string) => `${method} ${template}: ${what}`;
    const same = { method, path, body };
    cases.push(
      { name: name("a good request"), ...same, headers, status: 200 },
      {
        name: name("no session cookie"),
        ...same,
        headers: { ...headers, Cookie: "" },
        status: 401,
        allowed: false,
      },
      {
        name: name(`no ${CLIENT_HEADER} header`),
        ...same,
        headers: { ...(body && json), Cookie: main.admin },
        status: 403,
        allowed: false,
      },
      {
        name: name("a page on another site"),
        ...same,
        headers: { ...headers, Origin: "https://elsewhere.example" },
        status: 403,
      },
      {
        name: name("another host (DNS rebinding)"),
        ...same,
        headers: { ...headers, Host: "vics.elsewhere.example" },
        status: 421,
      },
      {
        name: name("the wrong method"),
        method: "delete",
        path,
        headers: web(main.admin),
        status: 405,
        allowed: false,
        documentedAt: { method, path: template },
      },
      {
        name: name("the key over its plan's limit upstream"),
        ...same,
        headers: { ...headers, Cookie: overPlan.admin },
        status: 429,
        send: overPlan.send,
      },
      {
        name: name("the service failing"),
        ...same,
        headers: { ...headers, Cookie: broken.admin },
        status: 500,
        send: broken.send,
      },
      {
        name: name("the service unreachable"),
        ...same,
        headers: { ...headers, Cookie: unreachable.admin },
        status: 502,
        send: unreachable.send,
      },
      {
        name: name("a gateway in front of the service timing out"),
        ...same,
        headers: { ...headers, Cookie: late.admin },
        status: 504,
        send: late.send,
      },
    );
    if (method === "get")
      cases.push({
        name: name("a body on a GET"),
        method,
        path,
        headers: { ...headers, "Content-Length": "5" },
        status: 413,
        allowed: false,
      });
  }
  // The one look-up a minute of the tight proxy's staff user: the next ones are refused.
  cases.push({
    name: "a user's one look-up a minute",
    method: "get",
    path: `/v1/vehicle/${KNOWN}/insurance`,
    headers: web(tight.staff),
    status: 200,
    send: tight.send,
  });
  for (const check of [
    "vehicle/{registration}/insurance",
    "compliance/{registration}",
  ]) {
    const at = (registration: string) =>
      `/v1/${check.replace("{registration}", registration)}`;
    const headers = web(main.admin);
    cases.push(
      {
        name: `${check}: a registration in no UK format`,
        method: "get",
        path: at("NOT-A-PLATE-AT-ALL"),
        headers,
        status: 400,
      },
      {
        name: `${check}: a date that is not one`,
        method: "get",
        path: `${at(KNOWN)}?date=yesterday`,
        headers,
        status: 400,
        allowed: false,
      },
      {
        name: `${check}: no such vehicle (the sandbox's)`,
        method: "get",
        path: at("ER19NFD"),
        headers,
        status: 404,
      },
      {
        name: `${check}: the second look-up of a user allowed one a minute`,
        method: "get",
        path: at(KNOWN),
        headers: { ...headers, Cookie: tight.staff },
        status: 429,
        send: tight.send,
      },
    );
  }
  cases.push({
    name: "compliance/{registration}: a vehicle never seen, its register down",
    method: "get",
    path: "/v1/compliance/ZZ99ZZY",
    headers: web(registerIsDown.admin),
    status: 503,
    send: registerIsDown.send,
  });
  for (const bulk of ["bulk-insurance", "bulk-compliance"]) {
    const path = `/v1/vehicle/${bulk}`;
    const headers = { ...web(main.admin), ...json };
    cases.push(
      {
        name: `${bulk}: a body that is not JSON`,
        method: "post",
        path,
        headers,
        body: "{registrations:",
        status: 400,
        allowed: false,
      },
      {
        name: `${bulk}: a body over the limit`,
        method: "post",
        path,
        headers,
        body: JSON.stringify({
          registrations: Array.from(
            { length: BULK_MAX_BODY_BYTES / 8 },
            () => KNOWN,
          ),
        }),
        status: 413,
        allowed: false,
      },
      {
        name: `${bulk}: a staff user, without the fleet role`,
        method: "post",
        path,
        headers: { ...web(main.staff), ...json },
        body: BULK_BODY,
        status: 403,
      },
      {
        name: `${bulk}: more look-ups than the user's own limit`,
        method: "post",
        path,
        headers: { ...web(tight.admin), ...json },
        body: BULK_BODY,
        status: 429,
        send: tight.send,
      },
    );
  }
  return { cases, send: main.send, copy: await copyOf(main) };
}

async function copyOf(proxy: {
  send: (request: Request) => Promise<Response>;
  admin: string;
}): Promise<object> {
  const response = await proxy.send(
    new Request(`http://localhost${PROXY_PREFIX}/v1/openapi.json`, {
      headers: { Cookie: proxy.admin, [CLIENT_HEADER]: "web" },
    }),
  );
  expect(response.status).toBe(200);
  return (await response.json()) as object;
}

describe("the proxy's copy of the OpenAPI document against the proxy's answers", () => {
  // Two services, seven proxies and some seventy requests: seconds, more on a busy machine.
  it("answers every request of the corpus as the copy says (Prism's validators), and the corpus meets every operation and status the copy lists", async () => {
    const { cases, send, copy } = await corpus();
    const report = await checkConformance(copy, cases, send, PROXY_PREFIX);
    expect(report.violations).toEqual([]);
    expect(report.checked).toBe(cases.length);
    expect([...report.covered].sort()).toEqual(
      [...documentedAnswers(copy)].sort(),
    );
  }, 60_000);
});

describe("the conformance check itself", () => {
  it("finds the proxy's own 401 off a copy that requires X-RateLimit-* on it, as the copy did (the check is live)", async () => {
    const vics = await service();
    const main = await proxyTo(
      (request) => vics.app.fetch(request),
      await vics.createKey("internal", "proxy"),
    );
    const copy = (await copyOf(main)) as {
      paths: Record<string, { get: { responses: Record<string, object> } }>;
    };
    const check = copy.paths["/v1/compliance/{registration}"]!.get;
    check.responses["401"] = check.responses["404"]!;
    const report = await checkConformance(
      copy,
      [
        {
          name: "no session cookie",
          method: "get",
          path: `/v1/compliance/${KNOWN}`,
          headers: { [CLIENT_HEADER]: "web" },
          status: 401,
          allowed: false,
        },
      ],
      main.send,
      PROXY_PREFIX,
    );
    expect(report.violations).toContainEqual(
      expect.objectContaining({
        side: "answer",
        message: expect.stringContaining("x-ratelimit-limit"),
      }),
    );
  });
});
