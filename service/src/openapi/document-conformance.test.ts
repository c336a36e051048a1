// The service's OpenAPI document against what the service answers: a corpus of requests, one
// or more for every operation and every status the document gives it, each checked by Prism's
// validators as `prism proxy --errors` would check it (@vics/shared/testing/openapi-conformance).
// An operation or status added to the document without a request here fails the coverage test.
import {
  API_KEY_HEADER,
  BULK_MAX_BODY_BYTES,
  PLAN_LIMITS,
  type Plan,
} from "@vics/shared";
import {
  checkConformance,
  type ConformanceCase,
  documentedAnswers,
} from "@vics/shared/testing/openapi-conformance";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createApp } from "../app.ts";
import {
  type ImportHarness,
  importer,
  vehicle,
  VEHICLES,
} from "../testing/import-files.ts";
import { issueApiKey } from "../keys/api-key.ts";
import { openSqliteHarness } from "../testing/sqlite-harness.ts";
import { failingStore, registerDown, testAppDeps } from "../testing/index.ts";
import { createOpenApiDocument } from "./document.ts";

let harness: ImportHarness;
beforeEach(() => {
  harness = openSqliteHarness();
});
afterEach(() => harness.close());
const files = importer(() => harness, new Date().toISOString());

const BULK_BODY = JSON.stringify({ registrations: ["AB12CDE", "ZZ99ZZZ"] });
const json = { "Content-Type": "application/json" };

/** The service, its keys, an import with refused rows, and the corpus against them. */
async function corpus(): Promise<{
  cases: ConformanceCase[];
  send: (request: Request) => Promise<Response>;
}> {
  const report = await files.run("vehicles", [
    VEHICLES,
    vehicle("AB12CDE"),
    "=cmd,Ford,Focus,2019,Blue,2019-03-01",
  ]);
  const app = createApp(testAppDeps(harness.store, { sandbox: false }));
  const broken = createApp(
    testAppDeps(harness.store, { sandbox: false, wrapStore: failingStore }),
  );
  const key = async (plan: Plan) =>
    (await issueApiKey(harness.store, plan, `conformance-${plan}`, new Date()))
      .key;
  const internal = await key("internal");
  const standard = await key("standard");
  // A trial key spent to its last request: every operation then answers 429.
  const spent = await key("trial");
  for (let sent = 0; sent < PLAN_LIMITS.trial; sent += 1)
    await app.fetch(
      new Request("http://service.test/v1/openapi.json", {
        headers: { [API_KEY_HEADER]: spent },
      }),
    );
  // A live register that is down, for the compliance check's 503 (docs/sources.md).
  const registerIsDown = createApp(
    testAppDeps(harness.store, { sandbox: false, sources: registerDown() }),
  );
  const send = async (request: Request) => app.fetch(request);
  const sendBroken = async (request: Request) => broken.fetch(request);
  const as = (value: string) => ({ [API_KEY_HEADER]: value });

  type Operation = {
    method: "get" | "post";
    template: string;
    path: string;
    body?: string;
    key: string;
    /** A good request's status: 200 unless said. */
    ok?: number;
  };
  const operations: Operation[] = [
    {
      method: "get",
      template: "/v1/vehicle/{registration}/insurance",
      path: "/v1/vehicle/AB12CDE/insurance",
      key: standard,
    },
    {
      method: "get",
      template: "/v1/compliance/{registration}",
      path: "/v1/compliance/AB12CDE",
      key: standard,
    },
    {
      method: "post",
      template: "/v1/vehicle/bulk-insurance",
      path: "/v1/vehicle/bulk-insurance",
      body: BULK_BODY,
      key: standard,
    },
    {
      method: "post",
      template: "/v1/vehicle/bulk-compliance",
      path: "/v1/vehicle/bulk-compliance",
      body: BULK_BODY,
      key: standard,
    },
    {
      method: "get",
      template: "/v1/data/sources",
      path: "/v1/data/sources",
      key: standard,
    },
    {
      method: "get",
      template: "/v1/data/imports",
      path: "/v1/data/imports",
      key: internal,
    },
    {
      method: "get",
      template: "/v1/data/imports/{id}/rejects",
      path: `/v1/data/imports/${report.importId}/rejects`,
      key: internal,
    },
    {
      method: "get",
      template: "/v1/data/registers",
      path: "/v1/data/registers",
      key: internal,
    },
    {
      method: "post",
      template: "/v1/data/registers/refresh",
      path: "/v1/data/registers/refresh",
      body: BULK_BODY,
      key: internal,
      ok: 202,
    },
    {
      method: "get",
      template: "/v1/openapi.json",
      path: "/v1/openapi.json",
      key: standard,
    },
  ];

  const cases: ConformanceCase[] = [];
  for (const operation of operations) {
    const { method, path, body, key: own, template, ok = 200 } = operation;
    const headers = { ...as(own), ...(body && json) };
    const name = (what: string) => `${method} ${template}: ${what}`;
    cases.push(
      {
        name: name("a good request"),
        method,
        path,
        headers,
        body,
        status: ok,
      },
      {
        name: name("the wrong method"),
        method: method === "get" ? "post" : "get",
        path,
        headers: as(own),
        status: 405,
        allowed: false,
        documentedAt: { method, path: template },
      },
      {
        name: name("a key over its plan's limit"),
        method,
        path,
        headers: { ...headers, ...as(spent) },
        body,
        status: 429,
      },
      {
        name: name("the store failing"),
        method,
        path,
        headers,
        body,
        status: 500,
        send: sendBroken,
      },
    );
    if (template !== "/v1/openapi.json")
      cases.push(
        {
          name: name("no key"),
          method,
          path,
          headers: body ? json : {},
          body,
          status: 401,
          allowed: false,
        },
        {
          name: name("an unknown key"),
          method,
          path,
          headers: { ...headers, ...as("vics_not_a_key") },
          body,
          status: 401,
        },
      );
    if (own === internal)
      cases.push({
        name: name("a key that is not on the internal plan"),
        method,
        path,
        headers: { ...headers, ...as(standard) },
        body,
        status: 403,
      });
  }
  for (const check of [
    "vehicle/{registration}/insurance",
    "compliance/{registration}",
  ]) {
    const at = (registration: string) =>
      `/v1/${check.replace("{registration}", registration)}`;
    cases.push(
      {
        name: `${check}: a registration in no UK format`,
        method: "get",
        path: at("NOT-A-PLATE-AT-ALL"),
        headers: as(standard),
        status: 400,
      },
      {
        name: `${check}: a date that is not one`,
        method: "get",
        path: `${at("AB12CDE")}?date=yesterday`,
        headers: as(standard),
        status: 400,
        allowed: false,
      },
      {
        name: `${check}: no such vehicle`,
        method: "get",
        path: at("ZZ99ZZZ"),
        headers: as(standard),
        status: 404,
      },
    );
  }
  cases.push({
    name: "compliance/{registration}: a vehicle VICS never saw, its register down",
    method: "get",
    path: "/v1/compliance/ZZ99ZZY",
    headers: as(standard),
    status: 503,
    send: async (request) => registerIsDown.fetch(request),
  });
  for (const [bulk, path, own] of [
    ["bulk-insurance", "/v1/vehicle/bulk-insurance", standard],
    ["bulk-compliance", "/v1/vehicle/bulk-compliance", standard],
    ["registers refresh", "/v1/data/registers/refresh", internal],
  ] as const) {
    const headers = { ...as(own), ...json };
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
        name: `${bulk}: no registrations`,
        method: "post",
        path,
        headers,
        body: JSON.stringify({ registrations: [] }),
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
            () => "AB12CDE",
          ),
        }),
        status: 413,
        allowed: false,
      },
    );
  }
  cases.push({
    name: "rejects: an import that does not exist",
    method: "get",
    path: "/v1/data/imports/999999/rejects",
    headers: as(internal),
    status: 404,
  });
  return { cases, send };
}

describe("the service's OpenAPI document against the service's answers", () => {
  // A service, an import and some sixty requests: seconds, more on a busy machine.
  it("answers every request of the corpus as the document says (Prism's validators), and the corpus meets every operation and status the document lists", async () => {
    const { cases, send } = await corpus();
    const document = createOpenApiDocument();
    const report = await checkConformance(document, cases, send);
    expect(report.violations).toEqual([]);
    expect(report.checked).toBe(cases.length);
    expect([...report.covered].sort()).toEqual(
      [...documentedAnswers(document)].sort(),
    );
  }, 60_000);
});
