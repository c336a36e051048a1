// Property tests of every route, in process (app.fetch), over the hostile inputs of
// @vics/shared/testing/fuzz: each answer must be the one the contract gives for that input
// (worked out with the shared parsers), a documented status, and a problem document when it
// is an error; never a 500, never a hang. The service must still answer afterwards, with no
// error in its log. FUZZ_RUNS cases per property (1,000 here; `npm run fuzz`: 100,000).
import fc from "fast-check";
import { API_KEY_HEADER, REQUEST_ID_HEADER } from "@vics/shared";
import {
  bulkBody,
  carriesBody,
  checkAnswer,
  describeBulkBody,
  expectationFor,
  FUZZ_TEST_TIMEOUT_MS,
  fuzz,
  headerValue,
  httpMethod,
  pathSegment,
  requestIdHeader,
  tenMegabyteBody,
} from "@vics/shared/testing/fuzz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type LogEvent, memoryLogger } from "../logger.ts";
import {
  createTestService,
  TEST_CLIENT_ADDRESS,
  type TestService,
} from "../testing.ts";

// Each case without a key comes from its own address, and the budget of wrong keys from every
// address together is lifted: otherwise the limit of 30 unauthenticated requests per window,
// or of 100 wrong keys (decision 031), would make the answers after them 429s.
const CLIENT_HEADER = "X-Fuzz-Client";
// The internal plan allows 100,000 requests per window; a fresh key every 10,000 keeps a
// 100,000-case run clear of 429s, so every answer is the route's own.
const REQUESTS_PER_KEY = 10_000;

let service: TestService;
let log: ReturnType<typeof memoryLogger>;
let requests = 0;
let clients = 0;
let key = "";

beforeAll(async () => {
  log = memoryLogger("warn");
  // Sandbox off: its plates answer 500 and 429 on purpose.
  service = await createTestService({
    sandbox: false,
    logger: log,
    clientAddress: (c) => c.req.header(CLIENT_HEADER) ?? TEST_CLIENT_ADDRESS,
    wrongKeysPerWindow: Number.MAX_SAFE_INTEGER,
  });
});
afterAll(() => service.close());

async function validKey(): Promise<string> {
  if (requests++ % REQUESTS_PER_KEY === 0)
    key = await service.createKey("internal");
  return key;
}

interface Sent {
  method: string;
  path: string;
  key?: string;
  requestId?: string;
  contentType?: string | null;
  body?: Uint8Array<ArrayBuffer>;
}

const url = (path: string) => `http://service.test${path}`;

function send(sent: Sent): Promise<Response> {
  const headers = new Headers({ [CLIENT_HEADER]: `client-${clients++}` });
  if (sent.key !== undefined) headers.set(API_KEY_HEADER, sent.key);
  if (sent.requestId !== undefined)
    headers.set(REQUEST_ID_HEADER, sent.requestId);
  if (sent.contentType != null) headers.set("Content-Type", sent.contentType);
  return Promise.resolve(
    service.app.fetch(
      new Request(url(sent.path), {
        method: sent.method,
        headers,
        body: carriesBody(sent.method) ? sent.body : undefined,
      }),
    ),
  );
}

async function answer(sent: Sent, authorised: boolean): Promise<string> {
  const response = await send(sent);
  const expected = expectationFor(
    {
      method: sent.method,
      url: url(sent.path),
      authorised,
      contentType: sent.contentType,
      body: carriesBody(sent.method) ? sent.body : undefined,
    },
    "",
  );
  return checkAnswer(response, expected, sent);
}

const errorsLogged = (): LogEvent[] =>
  log.events.filter((event) => event.level === "error");

/** After a property: still up, still answering a real check, nothing logged as an error. */
async function expectStillServing(): Promise<void> {
  const health = await send({ method: "GET", path: "/health" });
  expect(health.status).toBe(200);
  const check = await send({
    method: "GET",
    path: "/v1/vehicle/AB12CDE/insurance",
    key: await validKey(),
  });
  expect(check.status).toBe(200);
  expect(errorsLogged()).toEqual([]);
}

const singleCheckPath = (route: "insurance" | "compliance", segment: string) =>
  route === "insurance"
    ? `/v1/vehicle/${segment}/insurance`
    : `/v1/compliance/${segment}`;

const describeSent = (sent: Omit<Sent, "body">) =>
  `${sent.method} ${sent.path}${sent.requestId === undefined ? "" : ` (X-Request-Id ${JSON.stringify(sent.requestId)})`}`;

describe("the service's routes over hostile input", () => {
  it(
    "GET a single check with a key: 200 for a plate held, else 400 or 404, as the shared parser says",
    async () => {
      const report = await fuzz(
        "service: single checks with a key",
        fc.record({
          route: fc.constantFrom("insurance" as const, "compliance" as const),
          segment: pathSegment(),
          method: httpMethod("GET"),
          requestId: requestIdHeader(),
        }),
        async ({ route, segment, method, requestId }) =>
          answer(
            {
              method,
              path: singleCheckPath(route, segment),
              key: await validKey(),
              requestId,
            },
            true,
          ),
        {
          describe: ({ route, segment, method, requestId }) =>
            describeSent({
              method,
              path: singleCheckPath(route, segment),
              requestId,
            }),
        },
      );
      // The inputs reach every answer: a record, an unknown plate, a refused one.
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining([
          "insurance: 200",
          "compliance: 200",
          "insurance: 404 VEHICLE_NOT_FOUND",
          "insurance: 400 INVALID_REGISTRATION",
          "compliance: 400 INVALID_REGISTRATION",
        ]),
      );
      await expectStillServing();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it(
    "POST a bulk check with a key: 200 with one item per registration, else the 400 or 413 that names the problem",
    async () => {
      const bulkPath = (check: "insurance" | "compliance") =>
        `/v1/vehicle/bulk-${check}`;
      const report = await fuzz(
        "service: bulk checks with a key",
        fc.record({
          check: fc.constantFrom("insurance" as const, "compliance" as const),
          body: bulkBody(),
          requestId: requestIdHeader(),
        }),
        async ({ check, body, requestId }) =>
          answer(
            {
              method: "POST",
              path: bulkPath(check),
              key: await validKey(),
              requestId,
              contentType: body.contentType,
              body: body.body,
            },
            true,
          ),
        {
          // 10 MB, once per run for each check: refused after the first 64 KiB.
          examples: (["insurance", "compliance"] as const).map((check) => ({
            check,
            body: tenMegabyteBody(),
            requestId: undefined,
          })),
          describe: ({ check, body }) =>
            `POST ${bulkPath(check)}: ${describeBulkBody(body)}`,
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining([
          "bulk insurance: 200",
          "bulk compliance: 200",
          "bulk insurance: 400 MALFORMED_REQUEST",
          "bulk insurance: 413 PAYLOAD_TOO_LARGE",
        ]),
      );
      await expectStillServing();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it(
    "any route without a valid key: 401 for the checks, whatever else is wrong; 200 for the OpenAPI document",
    async () => {
      const report = await fuzz(
        "service: every route without a valid key",
        fc.record({
          path: fc.oneof(
            pathSegment().map((segment) =>
              singleCheckPath("insurance", segment),
            ),
            pathSegment().map((segment) =>
              singleCheckPath("compliance", segment),
            ),
            fc.constantFrom(
              "/v1/vehicle/bulk-insurance",
              "/v1/vehicle/bulk-compliance",
              "/v1/openapi.json",
              "/v1/vehicle",
              "/v2/compliance/AB12CDE",
            ),
          ),
          method: fc.oneof(httpMethod("GET"), httpMethod("POST")),
          key: fc.option(
            fc.oneof(
              headerValue(60),
              fc.stringMatching(/^vics_[A-Za-z0-9_-]{43}$/),
            ),
            { nil: undefined },
          ),
          body: bulkBody(),
          requestId: requestIdHeader(),
        }),
        ({ path, method, key, body, requestId }) =>
          answer(
            {
              method,
              path,
              key,
              requestId,
              contentType: body.contentType,
              body: body.body,
            },
            false,
          ),
        {
          describe: ({ path, method, key, requestId }) =>
            `${describeSent({ method, path, requestId })}, X-API-Key ${key === undefined ? "absent" : JSON.stringify(key)}`,
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining([
          "insurance: 401 UNAUTHORIZED",
          "compliance: 401 UNAUTHORIZED",
          "bulk insurance: 401 UNAUTHORIZED",
          "openapi: 200",
        ]),
      );
      await expectStillServing();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );

  it(
    "any method on any path with a key: the route's answer, 405 for a wrong method, a NOT_FOUND problem for the rest",
    async () => {
      const report = await fuzz(
        "service: any method, any path",
        fc.record({
          path: fc.oneof(
            fc.webPath(),
            fc
              .array(pathSegment(), { minLength: 1, maxLength: 4 })
              .map((segments) => `/v1/${segments.join("/")}`),
            fc.constantFrom(
              "/v1/openapi.json",
              "/v1/openapi.json/",
              "/V1/openapi.json",
              "/v1/OPENAPI.JSON",
              "/v1//compliance/AB12CDE",
              "/v1/compliance/AB12CDE/",
              "/v1/compliance/",
              "/v1/vehicle//insurance",
              "/v1/vehicle/bulk-insurance/insurance",
              "/v1/vehicle/bulk-insurance/",
              "/v1/./openapi.json",
              "/v1/vehicle/../openapi.json",
              "/v1/vehicle/%2E%2E/%2E%2E/health",
              "/health",
              "/health/",
              "/",
              "",
            ),
          ),
          method: fc.oneof(httpMethod("GET"), httpMethod("POST")),
          body: bulkBody(),
          requestId: requestIdHeader(),
        }),
        async ({ path, method, body, requestId }) =>
          answer(
            {
              method,
              path,
              key: await validKey(),
              requestId,
              contentType: body.contentType,
              body: body.body,
            },
            true,
          ),
        {
          describe: ({ path, method, requestId }) =>
            describeSent({ method, path, requestId }),
        },
      );
      expect(Object.keys(report.outcomes)).toEqual(
        expect.arrayContaining([
          "unknown route: 404 NOT_FOUND",
          "openapi: 200",
          "openapi: 405 METHOD_NOT_ALLOWED",
          "health: 200",
        ]),
      );
      await expectStillServing();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
