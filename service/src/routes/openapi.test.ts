import { describe, expect, it } from "vitest";
import { freshServices } from "../testing/services.ts";
import { call, expectMeteredHeaders } from "../testing/requests.ts";

const start = freshServices();

interface OpenApiDocument {
  openapi: string;
  servers: Array<{ url: string }>;
  paths: Record<
    string,
    Record<
      string,
      { responses: Record<string, { headers?: Record<string, unknown> }> }
    >
  >;
  components: {
    schemas: Record<string, unknown>;
    securitySchemes: Record<string, unknown>;
  };
}

describe("GET /v1/openapi.json", () => {
  it("serves the OpenAPI 3.1 document generated from the shared schemas", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    expect(response.status).toBe(200);
    const document = (await response.json()) as OpenApiDocument;
    expect(document.openapi).toBe("3.1.0");
    expect(Object.keys(document.components.schemas)).toEqual(
      expect.arrayContaining([
        "InsuranceRecord",
        "ComplianceRecord",
        "ComplianceDetails",
        "Problem",
        "Policy",
        "Vehicle",
      ]),
    );
    expect(document.components.securitySchemes.ApiKey).toMatchObject({
      type: "apiKey",
      in: "header",
      name: "X-API-Key",
    });
    for (const [path, more] of [
      ["/v1/vehicle/{registration}/insurance", []],
      // The compliance check's 503: a live register down for a vehicle never seen.
      ["/v1/compliance/{registration}", ["503"]],
    ] as const) {
      const responses = document.paths[path]?.get?.responses ?? {};
      expect(Object.keys(responses).sort()).toEqual([
        "200",
        "400",
        "401",
        "404",
        "405",
        "429",
        "500",
        ...more,
      ]);
      expect(Object.keys(responses["200"]?.headers ?? {})).toEqual(
        expect.arrayContaining([
          "X-RateLimit-Limit",
          "X-RateLimit-Remaining",
          "X-RateLimit-Reset",
          "X-Request-Id",
        ]),
      );
      expect(Object.keys(responses["429"]?.headers ?? {})).toContain(
        "Retry-After",
      );
      expect(JSON.stringify(responses["404"])).toContain(
        "#/components/schemas/Problem",
      );
    }
  });

  it("names its server: the origin root, since every path already starts with /v1", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const document = (await response.json()) as OpenApiDocument;
    // Relative, so the document is right on whatever host serves it.
    expect(document.servers.map((server) => server.url)).toEqual(["/"]);
  });

  it("documents the v1 API only: every path is under /v1, /health is not", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const paths = Object.keys(
      ((await response.json()) as OpenApiDocument).paths,
    );
    expect(paths.length).toBeGreaterThan(0);
    for (const path of paths) expect(path).toMatch(/^\/v1\//);
    expect(paths).not.toContain("/health");
  });

  it("has no dangling $ref: every referenced schema is a component", async () => {
    const text = await (await call(await start(), "/v1/openapi.json")).text();
    const document = JSON.parse(text) as OpenApiDocument;
    const refs = [
      ...text.matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g),
    ];
    expect(refs.length).toBeGreaterThan(5);
    for (const [, name] of refs)
      expect(document.components.schemas).toHaveProperty([name ?? ""]);
  });

  it("needs no key: counted per address without one, against the key with one", async () => {
    const service = await start();
    expectMeteredHeaders(await call(service, "/v1/openapi.json"), 30);
    const key = await service.createKey("trial");
    const withKey = await call(service, "/v1/openapi.json", { key });
    expect(withKey.status).toBe(200);
    expectMeteredHeaders(withKey, 10);
    expect(withKey.headers.get("X-RateLimit-Remaining")).toBe("9");
  });
});

interface BulkOperation {
  operationId: string;
  description: string;
  "x-vics-extension"?: boolean;
  requestBody: {
    required: boolean;
    content: Record<string, { schema: { $ref: string } }>;
  };
  responses: Record<
    string,
    {
      headers?: Record<string, unknown>;
      content: Record<string, { schema: { $ref: string } }>;
    }
  >;
}

describe("the bulk operations in the OpenAPI document", () => {
  async function bulkOperations() {
    const response = await call(await start(), "/v1/openapi.json");
    const document = (await response.json()) as {
      paths: Record<string, Record<string, BulkOperation>>;
    };
    return {
      insurance: document.paths["/v1/vehicle/bulk-insurance"],
      compliance: document.paths["/v1/vehicle/bulk-compliance"],
    };
  }

  it.each([
    ["insurance", "checkBulkInsurance", "BulkResult"],
    ["compliance", "checkBulkCompliance", "BulkComplianceResult"],
  ] as const)(
    "bulk %s: POST only, a required JSON BulkRequest body, its answer and every problem status",
    async (which, operationId, answer) => {
      const item = (await bulkOperations())[which];
      expect(Object.keys(item ?? {})).toEqual(["post"]);
      const operation = item?.post;
      expect(operation?.operationId).toBe(operationId);
      expect(operation?.requestBody.required).toBe(true);
      expect(
        operation?.requestBody.content["application/json"]?.schema,
      ).toEqual({ $ref: "#/components/schemas/BulkRequest" });
      expect(Object.keys(operation?.responses ?? {}).sort()).toEqual([
        "200",
        "400",
        "401",
        "405",
        "413",
        "429",
        "500",
      ]);
      expect(
        operation?.responses["200"]?.content["application/json"]?.schema,
      ).toEqual({ $ref: `#/components/schemas/${answer}` });
      expect(Object.keys(operation?.responses["413"]?.headers ?? {})).toContain(
        "X-RateLimit-Remaining",
      );
      expect(
        operation?.responses["413"]?.content["application/problem+json"]
          ?.schema,
      ).toEqual({ $ref: "#/components/schemas/Problem" });
    },
  );

  it("marks bulk compliance, and only it, as an extension clients must not depend on", async () => {
    const { insurance, compliance } = await bulkOperations();
    expect(compliance?.post?.["x-vics-extension"]).toBe(true);
    expect(compliance?.post?.description).toMatch(
      /^Extension, not in the interface document: clients must not depend on it/,
    );
    expect(insurance?.post?.["x-vics-extension"]).toBeUndefined();
  });

  it("describes the bulk items' lastPolicy as an extension, and policy as meaning insured (decision 021)", async () => {
    const response = await call(await start(), "/v1/openapi.json");
    const { schemas } = ((await response.json()) as OpenApiDocument).components;
    type Described = { properties: Record<string, { description?: string }> };
    for (const name of ["BulkItem", "BulkComplianceItem"]) {
      const { properties } = schemas[name] as Described;
      expect(properties.lastPolicy?.description, name).toMatch(
        /^Extension, not in the interface document/,
      );
      expect(properties.lastPolicy?.description, name).toMatch(/not insured/);
    }
    const bulkItem = schemas.BulkItem as Described;
    expect(bulkItem.properties.policy?.description).toMatch(/means insured/);
    const complianceItem = schemas.BulkComplianceItem as Described;
    expect(complianceItem.properties.policy?.description).toMatch(/^Extension/);
  });
});
