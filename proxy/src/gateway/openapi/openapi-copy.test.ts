import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "@vics/shared";
import { FORWARDED_OPERATIONS } from "../forward/forwarded-operations.ts";
import {
  CLIENT_HEADER_PARAMETER,
  openApiPath,
  PROXY_DESCRIPTION,
  proxyCopyOfOpenApi,
  sessionSecurityScheme,
} from "./openapi-copy.ts";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

const problem = { $ref: "#/components/responses/Problem" };
/** The user's own budget, on every answer the service gives to a check. */
const OWN = {
  "X-Own-Limit": { $ref: "#/components/headers/OwnLimit" },
  "X-Own-Remaining": { $ref: "#/components/headers/OwnRemaining" },
  "X-Own-Reset": { $ref: "#/components/headers/OwnReset" },
};
const operation = (operationId: string) => ({
  operationId,
  summary: operationId,
  security: [{ ApiKey: [] }],
  responses: { "200": { description: "ok" }, "404": problem },
});

/** A service document with more than the proxy forwards. */
const serviceDocument = {
  openapi: "3.1.0",
  info: { title: "VICS", version: "1.0.0" },
  servers: [{ url: "/" }],
  security: [{ ApiKey: [] }],
  tags: [{ name: "checks" }],
  paths: {
    "/v1/vehicle/{registration}/insurance": {
      summary: "One vehicle's insurance",
      servers: [{ url: "https://elsewhere.example" }],
      get: { ...operation("getInsurance"), servers: [{ url: "/other" }] },
    },
    "/v1/compliance/{registration}": {
      get: operation("getCompliance"),
      delete: operation("deleteCompliance"),
    },
    "/v1/openapi.json": {
      get: { ...operation("getOpenApiDocument"), security: [{}] },
    },
    "/v1/vehicle/bulk-insurance": {
      post: operation("checkBulkInsurance"),
      put: operation("replaceBulkInsurance"),
    },
    "/v1/vehicle/bulk-compliance": {
      post: { ...operation("checkBulkCompliance"), "x-vics-extension": true },
    },
    "/v1/vehicle/bulk-mot": {
      post: {
        ...operation("checkBulkMot"),
        responses: {
          "200": {
            description: "ok",
            content: {
              "application/json": {
                schema: { $ref: "#/components/schemas/BulkMotResult" },
              },
            },
          },
        },
      },
    },
    "/health": { get: operation("getHealth") },
  },
  components: {
    responses: {
      Problem: {
        description: "A problem",
        content: {
          "application/problem+json": {
            schema: { $ref: "#/components/schemas/Problem" },
          },
        },
      },
    },
    schemas: {
      Problem: { type: "object" },
      // Only the service's own operations use it: the copy leaves it out.
      BulkMotResult: { type: "object" },
    },
    securitySchemes: { ApiKey: { type: "apiKey", in: "header", name: "K" } },
  },
};

function copy() {
  const result = proxyCopyOfOpenApi(serviceDocument, FORWARDED_OPERATIONS);
  if (!result) throw new Error("expected a copy");
  return result as typeof serviceDocument;
}

describe("the proxy's copy of the OpenAPI document", () => {
  it("names the server /api, so /api + /v1/... is the proxy's address", () => {
    expect(copy().servers).toEqual([expect.objectContaining({ url: "/api" })]);
  });

  it("lists exactly the forwarded operations: no /health, no other bulk check, no DELETE or PUT", () => {
    const operations = Object.entries(copy().paths).flatMap(([path, item]) =>
      Object.keys(item)
        .filter((key) => key !== "summary")
        .map((method) => `${method} ${path}`),
    );
    expect(operations.sort()).toEqual([
      "get /v1/compliance/{registration}",
      "get /v1/openapi.json",
      "get /v1/vehicle/{registration}/insurance",
      "post /v1/vehicle/bulk-compliance",
      "post /v1/vehicle/bulk-insurance",
    ]);
    expect(operations).toEqual(
      FORWARDED_OPERATIONS.map(
        (forwarded) => `${forwarded.method} ${openApiPath(forwarded.route)}`,
      ).sort(),
    );
  });

  it("asks for the session cookie, not the key, and points nowhere else: no other servers", () => {
    const result = copy();
    expect(result.security).toEqual([{ Session: [] }]);
    expect(result.components).toEqual({
      responses: serviceDocument.components.responses,
      schemas: { Problem: { type: "object" } },
      headers: {
        OwnLimit: expect.objectContaining({ required: false }),
        OwnRemaining: expect.objectContaining({ required: false }),
        OwnReset: expect.objectContaining({ required: false }),
      },
      securitySchemes: { Session: sessionSecurityScheme },
    });
    const text = JSON.stringify(result.paths);
    expect(text).not.toContain("security");
    expect(text).not.toContain("servers");
    // What the operation says otherwise is kept, as is the path item's summary.
    expect(result.paths["/v1/vehicle/{registration}/insurance"]).toEqual({
      summary: "One vehicle's insurance",
      get: {
        operationId: "getInsurance",
        summary: "getInsurance",
        responses: expect.objectContaining({
          "200": { description: "ok", headers: OWN },
          "404": problem,
        }),
        parameters: [CLIENT_HEADER_PARAMETER],
      },
    });
  });

  it("lists the answers the proxy gives itself on every operation, and the service's as they are", () => {
    for (const [path, item] of Object.entries(copy().paths))
      for (const [method, value] of Object.entries(item)) {
        if (method === "summary") continue;
        const { responses } = value as { responses: Record<string, unknown> };
        expect(Object.keys(responses), `${method} ${path}`).toEqual(
          expect.arrayContaining([
            "200",
            "401",
            "403",
            "404",
            "405",
            "413",
            "421",
            "502",
            "504",
          ]),
        );
        // The service's own answers are passed on: its words, its headers.
        expect(responses["404"]).toEqual(problem);
        expect(JSON.stringify(responses["401"])).toContain("SIGN_IN_REQUIRED");
        expect(JSON.stringify(responses["401"])).not.toContain("API key");
      }
  });

  it("makes the X-RateLimit-* headers optional only where the proxy may answer itself", () => {
    const header = (description: string) => ({
      required: true,
      description,
      schema: { type: "integer" },
    });
    const headers = (...names: string[]) =>
      Object.fromEntries(
        names.map((name) => [
          `X-${name.replace("RateLimit", "RateLimit-")}`,
          { $ref: `#/components/headers/${name}` },
        ]),
      );
    const limited = {
      description: "answer",
      headers: headers("RateLimitLimit", "RateLimitRemaining"),
    };
    const result = proxyCopyOfOpenApi(
      {
        ...serviceDocument,
        paths: {
          "/v1/compliance/{registration}": {
            get: {
              ...operation("getCompliance"),
              responses: { "200": limited, "400": limited, "429": limited },
            },
          },
        },
        components: {
          ...serviceDocument.components,
          headers: {
            RateLimitLimit: header("Allowed"),
            RateLimitRemaining: header("Left"),
          },
        },
      },
      FORWARDED_OPERATIONS,
    ) as unknown as {
      paths: Record<string, { get: { responses: Record<string, unknown> } }>;
      components: { headers: Record<string, { required: boolean }> };
    };
    const { responses } = result.paths["/v1/compliance/{registration}"]!.get;
    expect(responses["200"]).toEqual({
      ...limited,
      headers: { ...limited.headers, ...OWN },
    });
    expect(responses["429"]).toMatchObject({ headers: limited.headers });
    expect(responses["400"]).toEqual({
      description: "answer",
      headers: {
        ...OWN,
        "X-RateLimit-Limit": {
          $ref: "#/components/headers/RateLimitLimitIfCounted",
        },
        "X-RateLimit-Remaining": {
          $ref: "#/components/headers/RateLimitRemainingIfCounted",
        },
      },
    });
    expect(result.components.headers).toMatchObject({
      RateLimitLimit: { required: true },
      RateLimitLimitIfCounted: { required: false },
      RateLimitRemainingIfCounted: { required: false },
    });
  });

  it("asks every operation for the client header the proxy requires, after its own parameters", () => {
    const withPathParameter = {
      ...serviceDocument,
      paths: {
        "/v1/compliance/{registration}": {
          get: {
            ...operation("getCompliance"),
            parameters: [{ name: "registration", in: "path", required: true }],
          },
        },
      },
    };
    const result = proxyCopyOfOpenApi(withPathParameter, FORWARDED_OPERATIONS);
    expect(result?.paths).toMatchObject({
      "/v1/compliance/{registration}": {
        get: {
          parameters: [
            { name: "registration", in: "path" },
            { name: "X-VICS-Client", in: "header", required: true },
          ],
        },
      },
    });
    for (const item of Object.values(copy().paths))
      for (const [key, value] of Object.entries(item))
        if (key !== "summary")
          expect(
            (value as { parameters: unknown[] }).parameters,
            key,
          ).toContainEqual(CLIENT_HEADER_PARAMETER);
  });

  it("keeps an operation's vendor extensions, such as the bulk compliance extension's mark", () => {
    expect(copy().paths["/v1/vehicle/bulk-compliance"]).toEqual({
      post: {
        operationId: "checkBulkCompliance",
        summary: "checkBulkCompliance",
        responses: expect.objectContaining({
          "200": { description: "ok", headers: OWN },
        }),
        "x-vics-extension": true,
        parameters: [CLIENT_HEADER_PARAMETER],
      },
    });
  });

  it("declares the user's own budget on a check's answers, optional, and not on the document's or the proxy's own refusals", () => {
    const result = copy() as unknown as {
      paths: Record<
        string,
        Record<string, { responses: Record<string, { headers?: object }> }>
      >;
      components: { headers: Record<string, { required: boolean }> };
    };
    const check = result.paths["/v1/vehicle/{registration}/insurance"]!.get!;
    expect(check.responses["200"]?.headers).toMatchObject(OWN);
    for (const own of ["403", "413", "421"])
      expect(check.responses[own]?.headers).not.toHaveProperty("X-Own-Limit");
    const document = result.paths["/v1/openapi.json"]!.get!;
    expect(JSON.stringify(document.responses)).not.toContain("X-Own");
    expect(result.components.headers).toMatchObject({
      OwnLimit: { required: false },
      OwnRemaining: { required: false },
      OwnReset: { required: false },
    });
  });

  it("keeps what it does not rewrite, and leaves the service's document alone", () => {
    const before = JSON.stringify(serviceDocument);
    const result = copy();
    // Its info, but for the description: the proxy's answers are not all the service's.
    expect(result.info).toEqual({
      ...serviceDocument.info,
      description: PROXY_DESCRIPTION,
    });
    expect(result.tags).toEqual(serviceDocument.tags);
    expect(JSON.stringify(serviceDocument)).toBe(before);
  });

  it.each([
    ["an array", [serviceDocument]],
    ["null", null],
    ["a string", "openapi: 3.1.0"],
    ["an object without paths", { openapi: "3.1.0", info: {} }],
    ["a Swagger 2 document", { swagger: "2.0", paths: {} }],
    ["paths that are not objects", { openapi: "3.1.0", paths: { "/v1": 1 } }],
  ])("is refused for %s", (_case, document) => {
    expect(proxyCopyOfOpenApi(document, FORWARDED_OPERATIONS)).toBeUndefined();
  });
});

describe("GET /api/v1/openapi.json through the proxy", () => {
  it("answers the copy, with the upstream's rate-limit headers", async () => {
    const upstream = fakeUpstream(() =>
      Response.json(serviceDocument, {
        headers: { "X-RateLimit-Limit": "120" },
      }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request("/api/v1/openapi.json");
    expect(response.status).toBe(200);
    expect(response.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(response.headers.get("X-RateLimit-Limit")).toBe("120");
    expect(await response.json()).toEqual(copy());
  });

  it.each([
    ["JSON that is not an OpenAPI document", '{"registration":"AB12CDE"}'],
    ["an array", "[]"],
    ["broken JSON", '{"openapi":'],
  ])("an upstream answering %s: 502, logged", async (_case, body) => {
    const upstream = fakeUpstream(
      () =>
        new Response(body, { headers: { "Content-Type": "application/json" } }),
    );
    const { app, log } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request("/api/v1/openapi.json");
    expect(response.status).toBe(502);
    expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
    expect(ProblemSchema.parse(await response.json()).code).toBe("BAD_GATEWAY");
    expect(log.entries.map((entry) => entry.message)).toContain(
      "upstream answer outside the contract",
    );
  });

  it("passes the upstream's problem (a 429) through, not rewritten", async () => {
    const body = {
      type: "about:blank",
      title: "Too many requests",
      status: 429,
      detail: "Wait 17 seconds.",
      code: "RATE_LIMITED",
      requestId: "svc-1",
    };
    const upstream = fakeUpstream(
      () =>
        new Response(JSON.stringify(body), {
          status: 429,
          headers: {
            "Content-Type": PROBLEM_CONTENT_TYPE,
            "Retry-After": "17",
          },
        }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request("/api/v1/openapi.json");
    expect(response.status).toBe(429);
    expect(response.headers.get("Retry-After")).toBe("17");
    expect(await response.json()).toEqual(body);
  });
});
