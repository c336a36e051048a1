import {
  RegisterRefreshQueuedSchema,
  RegistersSchema,
} from "@vics/shared/registers-admin";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createClient } from "@hey-api/openapi-ts";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import {
  BulkComplianceResultSchema,
  BulkResultSchema,
  CLIENT_HEADER,
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
} from "@vics/shared";
import { createTestService, type TestService } from "@vics/service/testing";
import { DataSourcesSchema, ImportListSchema } from "@vics/shared/data-admin";
import { builtWebRoot, createTestProxy } from "../../testing/index.ts";

/**
 * Clients generated from the OpenAPI documents by a tool nobody here wrote (Hey API's
 * openapi-ts, at test time, so no generated code is kept to drift), calling through the
 * proxy wired to the real service app.
 */

type Fetch = (request: Request) => Response | Promise<Response>;

interface GeneratedClient {
  getConfig(): { baseUrl?: string };
  setConfig(config: { baseUrl: string; fetch: Fetch; auth?: string }): void;
}

type OperationCall = (options?: {
  path?: Record<string, string>;
  body?: unknown;
  headers?: Record<string, string>;
}) => Promise<{ data?: unknown; error?: unknown; response: Response }>;

/** The header the proxy's copy asks every operation for (decision 018). */
const CLIENT = { [CLIENT_HEADER]: "generated-client" };

interface OpenApiDocument {
  servers?: Array<{ url: string }>;
  paths: Record<string, Record<string, { operationId?: string }>>;
}

const INDEX_HTML = "<!doctype html><html><body>The VICS web app</body></html>";

let service: TestService;
let generated: string[];

beforeEach(async () => {
  service = await createTestService({ sandbox: true, sandboxDelayMs: 0 });
  generated = [];
});

afterEach(async () => {
  await service.close();
  for (const folder of generated) rmSync(folder, { recursive: true });
});

/**
 * The proxy in front of the real service, serving a built web app (whose HTML must never answer
 * an API call). The app itself, not as the web app calls it: the generated client must send
 * the client header because the document says so.
 */
async function proxyToService() {
  const webRoot = builtWebRoot({ "index.html": INDEX_HTML });
  const upstreamPaths: string[] = [];
  const { proxy: app } = createTestProxy({
    apiKey: await service.createKey("standard", "proxy"),
    upstreamUrl: "http://service.internal",
    webRoot,
    fetch: (input, init) => {
      const request = new Request(input, init);
      upstreamPaths.push(new URL(request.url).pathname);
      return service.app.fetch(request);
    },
  });
  return { app, upstreamPaths };
}

async function fetchDocument(
  fetch: Fetch,
  url: string,
  headers: Record<string, string> = {},
) {
  const response = await fetch(new Request(url, { headers }));
  expect(response.status).toBe(200);
  return (await response.json()) as OpenApiDocument;
}

/** Generates a client (types, SDK functions and its fetch client) from the document. */
async function generateClient(document: OpenApiDocument) {
  const output = mkdtempSync(join(tmpdir(), "vics-generated-client-"));
  generated.push(output);
  await createClient({
    input: document as unknown as Record<string, unknown>,
    output,
    logs: { level: "silent", file: false },
    interactive: false,
  });
  const { client } = (await import(join(output, "client.gen.ts"))) as {
    client: GeneratedClient;
  };
  const sdk = (await import(join(output, "sdk.gen.ts"))) as Record<
    string,
    OperationCall
  >;
  return { client, sdk };
}

/**
 * The base URL a client uses: the document's server, resolved against the document's own
 * address when relative (OpenAPI 3.1, Server Object), without a trailing slash since every
 * path starts with one. The generated client starts from the same server.
 */
function serverOf(
  document: OpenApiDocument,
  documentUrl: string,
  client: GeneratedClient,
) {
  const server = document.servers?.[0]?.url;
  if (server === undefined) throw new Error("the document names no server");
  expect(client.getConfig().baseUrl).toBe(server.replace(/\/$/, ""));
  return new URL(server, documentUrl).href.replace(/\/$/, "");
}

/** Every operation, how to call it and what a right answer is; a new one needs a line. */
const EVERY_OPERATION: Record<
  string,
  {
    path?: Record<string, string>;
    body?: unknown;
    expectAnswer(data: unknown): void;
  }
> = {
  getInsurance: {
    path: { registration: "ab12 cde" },
    expectAnswer: (data) =>
      expect(InsuranceRecordSchema.parse(data)).toMatchObject({
        registration: "AB12CDE",
        insured: true,
        policy: { type: "Comprehensive" },
      }),
  },
  getCompliance: {
    path: { registration: "MT15EXP" },
    expectAnswer: (data) =>
      expect(ComplianceRecordSchema.parse(data)).toMatchObject({
        registration: "MT15EXP",
        compliant: false,
        checks: { insuranceValid: true, motValid: false },
      }),
  },
  getOpenApiDocument: {
    expectAnswer: (data) =>
      expect(data).toMatchObject({ openapi: expect.stringMatching(/^3\.1/) }),
  },
  checkBulkInsurance: {
    body: { registrations: ["ab12 cde", "ZZ99ZZZ", "AB12CDE"] },
    expectAnswer: (data) =>
      expect(BulkResultSchema.parse(data)).toMatchObject({
        results: [
          { registration: "AB12CDE", insured: true },
          {
            registration: "ZZ99ZZZ",
            insured: false,
            error: "Vehicle not found",
          },
          { registration: "AB12CDE", insured: true },
        ],
        processed: 3,
        successful: 2,
        failed: 1,
      }),
  },
  checkBulkCompliance: {
    body: { registrations: ["MT15EXP", "not a plate!"] },
    expectAnswer: (data) =>
      expect(BulkComplianceResultSchema.parse(data)).toMatchObject({
        results: [
          {
            registration: "MT15EXP",
            compliant: false,
            checks: { motValid: false },
          },
          {
            registration: "not a plate!",
            error: "Invalid registration format",
          },
        ],
        processed: 2,
        successful: 1,
        failed: 1,
      }),
  },
};

/** The service's own extensions for the data page, not forwarded by the proxy as they are. */
const DATA_OPERATIONS: typeof EVERY_OPERATION = {
  getDataSources: {
    expectAnswer: (data) =>
      expect(DataSourcesSchema.parse(data)).toMatchObject({ synthetic: true }),
  },
  listImports: {
    expectAnswer: (data) =>
      expect(ImportListSchema.parse(data)).toEqual({ imports: [] }),
  },
  getImportRejects: {
    path: { id: "1" },
    // No import 1 in a seeded database: the one operation answered with its 404 here.
    expectAnswer: () => undefined,
  },
  getRegisters: {
    expectAnswer: (data) =>
      expect(
        RegistersSchema.parse(data).registers.map(({ source, on }) => [
          source,
          on,
        ]),
      ).toEqual([
        ["dvla-ves", false],
        ["dvsa-mot-history", false],
      ]),
  },
  refreshFromRegisters: {
    body: { registrations: ["AB12CDE"] },
    // No register is on here: nothing is queued, and it says so.
    expectAnswer: (data) =>
      expect(RegisterRefreshQueuedSchema.parse(data)).toEqual({
        on: false,
        queued: 0,
        fresh: 0,
        invalid: [],
      }),
  },
};

/** The status each operation answers here: 200 but for these. */
const STATUS: Record<string, number> = {
  getImportRejects: 404,
  refreshFromRegisters: 202,
};

function operationIds(document: OpenApiDocument): string[] {
  return Object.values(document.paths)
    .flatMap((item) => Object.values(item))
    .map((operation) => operation.operationId ?? "no operationId");
}

async function callEveryOperation(
  document: OpenApiDocument,
  sdk: Record<string, OperationCall>,
  headers: Record<string, string> = {},
  operations = EVERY_OPERATION,
) {
  expect(operationIds(document).sort()).toEqual(Object.keys(operations).sort());
  for (const [operationId, call] of Object.entries(operations)) {
    const operation = sdk[operationId];
    if (!operation) throw new Error(`no SDK function for ${operationId}`);
    const { data, response } = await operation({
      path: call.path ?? {},
      body: call.body,
      headers,
    });
    expect(response.status, operationId).toBe(STATUS[operationId] ?? 200);
    expect(response.headers.get("Content-Type")).toMatch(
      /^application\/(problem\+)?json/,
    );
    call.expectAnswer(data);
  }
}

async function expectVehicleNotFound(
  sdk: Record<string, OperationCall>,
  headers: Record<string, string> = {},
) {
  const { error, response } = await sdk.getInsurance!({
    path: { registration: "ZZ99ZZZ" },
    headers,
  });
  expect(response.status).toBe(404);
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  expect(ProblemSchema.parse(error).code).toBe("VEHICLE_NOT_FOUND");
}

describe("a client generated from the proxy's /api/v1/openapi.json", () => {
  // A loopback host: the proxy answers only for its own (host-check.ts).
  const documentUrl = "http://localhost/api/v1/openapi.json";

  it("takes /api from the document's server and calls every operation through the proxy", async () => {
    const { app, upstreamPaths } = await proxyToService();
    const document = await fetchDocument(app.fetch, documentUrl, CLIENT);
    const { client, sdk } = await generateClient(document);
    const baseUrl = serverOf(document, documentUrl, client);
    expect(baseUrl).toBe("http://localhost/api");
    const called: string[] = [];
    client.setConfig({
      baseUrl,
      fetch: (request) => {
        called.push(request.url);
        return app.fetch(request);
      },
    });

    await callEveryOperation(document, sdk, CLIENT);
    await expectVehicleNotFound(sdk, CLIENT);

    for (const url of called)
      expect(url).toMatch(/^http:\/\/localhost\/api\/v1\//);
    expect(upstreamPaths).toEqual([
      "/v1/openapi.json",
      // The proxy forwards the registration as the shared parser normalises it.
      "/v1/vehicle/AB12CDE/insurance",
      "/v1/compliance/MT15EXP",
      "/v1/openapi.json",
      "/v1/vehicle/bulk-insurance",
      "/v1/vehicle/bulk-compliance",
      "/v1/vehicle/ZZ99ZZZ/insurance",
    ]);
  });

  it("never gets the web app's HTML: with the server, an answer; without it (the old bug), a 404 problem", async () => {
    const { app, upstreamPaths } = await proxyToService();
    const document = await fetchDocument(app.fetch, documentUrl, CLIENT);
    const { client, sdk } = await generateClient(document);
    const baseUrl = serverOf(document, documentUrl, client);

    // What a client did when the document had no server: the default "/", the origin root.
    client.setConfig({ baseUrl: "http://localhost", fetch: app.fetch });
    for (const [operationId, call] of Object.entries(EVERY_OPERATION)) {
      const { error, response } = await sdk[operationId]!({
        path: call.path ?? {},
        body: call.body,
        headers: CLIENT,
      });
      expect(response.status, operationId).toBe(404);
      expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
      const problem = ProblemSchema.parse(error);
      expect(problem.code).toBe("NOT_FOUND");
      expect(problem.detail).toContain("under /api/v1");
    }
    expect(upstreamPaths).toEqual(["/v1/openapi.json"]);

    // With the document's server, the same client gets real answers.
    client.setConfig({ baseUrl, fetch: app.fetch });
    await callEveryOperation(document, sdk, CLIENT);
  });

  it("without the client header the document asks for: the proxy's 403 on every operation, nothing upstream", async () => {
    const { app, upstreamPaths } = await proxyToService();
    const document = await fetchDocument(app.fetch, documentUrl, CLIENT);
    const { client, sdk } = await generateClient(document);
    client.setConfig({
      baseUrl: serverOf(document, documentUrl, client),
      fetch: app.fetch,
    });
    for (const [operationId, call] of Object.entries(EVERY_OPERATION)) {
      const { error, response } = await sdk[operationId]!({
        path: call.path ?? {},
        body: call.body,
      });
      expect(response.status, operationId).toBe(403);
      expect(ProblemSchema.parse(error)).toMatchObject({
        code: "FORBIDDEN",
        detail: expect.stringContaining(CLIENT_HEADER),
      });
    }
    expect(upstreamPaths).toEqual(["/v1/openapi.json"]);
  });
});

describe("a client generated from the service's own /v1/openapi.json", () => {
  it("takes / from the document's server and calls every operation on the service, with its key", async () => {
    const documentUrl = "http://service.test/v1/openapi.json";
    const document = await fetchDocument(service.app.fetch, documentUrl);
    const { client, sdk } = await generateClient(document);
    const baseUrl = serverOf(document, documentUrl, client);
    expect(baseUrl).toBe("http://service.test");
    // The data page's operations need a key on the internal plan, as the proxy's is.
    const key = await service.createKey("internal");
    const keys: Array<string | null> = [];
    client.setConfig({
      baseUrl,
      auth: key,
      fetch: (request) => {
        expect(request.url).toMatch(/^http:\/\/service\.test\/v1\//);
        keys.push(request.headers.get("X-API-Key"));
        return service.app.fetch(request);
      },
    });

    const operations = { ...EVERY_OPERATION, ...DATA_OPERATIONS };
    await callEveryOperation(document, sdk, {}, operations);
    await expectVehicleNotFound(sdk);
    // The key goes where the document's security asks for it, on every operation (and the
    // not-found check's one more).
    expect(keys).toEqual(Array(Object.keys(operations).length + 1).fill(key));
  });
});
