// Property tests of every route, in process (app.fetch), over the hostile inputs of
// @vics/shared/testing/fuzz: each answer must be the one the contract gives for that input
// (worked out with the shared parsers), a documented status, and a problem document when it
// is an error; never a 500, never a hang. The service must still answer afterwards, with no
// error in its log. FUZZ_RUNS cases per property (1,000 here; `npm run fuzz`: 100,000).
import fc from "fast-check";
import {
  API_KEY_HEADER,
  REQUEST_ID_HEADER,
  ROUTE_PATTERNS,
} from "@vics/shared";
import * as checks from "@vics/shared/testing/fuzz-checks";
import { checkAnswer, expectationFor } from "@vics/shared/testing/fuzz-http";
import { carriesBody, headerValue } from "@vics/shared/testing/fuzz-inputs";
import { afterAll, beforeAll, describe, expect } from "vitest";
import {
  type LogEvent,
  memoryLogger,
} from "@vics/server-kit/testing/memory-logger";
import {
  createTestService,
  TEST_CLIENT_ADDRESS,
  type TestService,
} from "../testing/index.ts";

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

interface Sent extends checks.SentCheck {
  key?: string;
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

describe("the service's routes over hostile input", () => {
  checks.propertyTest(
    "GET a single check with a key: 200 for a plate held, else 400 or 404, as the shared parser says",
    {
      name: "service: single checks with a key",
      input: checks.singleCheck(""),
      answer: async (sent) => answer({ ...sent, key: await validKey() }, true),
      options: {
        describe: checks.describeSent,
        examples: checks.plainRequests([
          ["GET", "/v1/unknown"],
          ["GET", "/v1/openapi.json"],
          ["DELETE", "/v1/openapi.json"],
          ["GET", "/health"],
        ]),
      },
      outcomes: checks.SINGLE_CHECK_OUTCOMES,
      after: expectStillServing,
    },
  );

  checks.propertyTest(
    "POST a bulk check with a key: 200 with one item per registration, else the 400 or 413 that names the problem",
    {
      name: "service: bulk checks with a key",
      input: checks.bulkCheck(),
      answer: async (bulk) =>
        answer(
          { ...checks.bulkCheckSent("", bulk), key: await validKey() },
          true,
        ),
      options: checks.bulkCheckOptions(""),
      outcomes: checks.BULK_CHECK_OUTCOMES,
      after: expectStillServing,
    },
  );

  // Every operation, and two paths that are none.
  const routes = fc.oneof(
    checks.singleCheckPaths(""),
    fc.constantFrom(
      ROUTE_PATTERNS.bulkInsurance,
      ROUTE_PATTERNS.bulkCompliance,
      ROUTE_PATTERNS.openapi,
      "/v1/vehicle",
      "/v2/compliance/AB12CDE",
    ),
  );
  const keys = fc.option(
    fc.oneof(headerValue(60), fc.stringMatching(/^vics_[A-Za-z0-9_-]{43}$/)),
    { nil: undefined },
  );
  checks.propertyTest(
    "any route without a valid key: 401 for the checks, whatever else is wrong; 200 for the OpenAPI document",
    {
      name: "service: every route without a valid key",
      input: fc.tuple(checks.anyRequest(routes), keys),
      answer: ([sent, key]) => answer({ ...sent, key }, false),
      options: {
        describe: ([sent, key]) =>
          `${checks.describeSent(sent)}, X-API-Key ${key === undefined ? "absent" : JSON.stringify(key)}`,
      },
      outcomes: [
        "insurance: 401 UNAUTHORIZED",
        "compliance: 401 UNAUTHORIZED",
        "bulk insurance: 401 UNAUTHORIZED",
        "openapi: 200",
      ],
      after: expectStillServing,
    },
  );

  const paths = fc.oneof(
    fc.webPath(),
    checks.pathsUnder(["/v1/"]),
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
  );
  checks.propertyTest(
    "any method on any path with a key: the route's answer, 405 for a wrong method, a NOT_FOUND problem for the rest",
    {
      name: "service: any method, any path",
      input: checks.anyRequest(paths),
      answer: async (sent) => answer({ ...sent, key: await validKey() }, true),
      options: {
        describe: checks.describeSent,
        examples: checks.plainRequests([
          ["GET", "/v1/unknown"],
          ["GET", "/v1/openapi.json"],
          ["DELETE", "/v1/openapi.json"],
          ["GET", "/health"],
        ]),
      },
      outcomes: [
        "unknown route: 404 NOT_FOUND",
        "openapi: 200",
        "openapi: 405 METHOD_NOT_ALLOWED",
        "health: 200",
      ],
      after: expectStillServing,
    },
  );
});
