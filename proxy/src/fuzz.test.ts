// Property tests of the proxy wired straight to the real service app (no ports), over the
// hostile inputs of @vics/shared/testing/fuzz: each answer is the one the contract gives for
// that input, worked out with the shared parsers, whether the proxy refuses it itself or the
// service answers; a documented status; a problem document for an error; never a 5xx (a 502
// here would mean the service broke the contract), never a hang. Then the proxy's own
// refusals, with any browser headers and Host. FUZZ_RUNS cases per property.
import { mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import fc from "fast-check";
import { HEALTH_PATH, REQUEST_ID_HEADER } from "@vics/shared";
import { createTestService, type TestService } from "@vics/service/testing";
import * as checks from "@vics/shared/testing/fuzz-checks";
import {
  checkAnswer,
  DOCUMENTED_STATUSES,
  type Expectation,
  expectationFor,
  PROXY_EDGE_STATUSES,
} from "@vics/shared/testing/fuzz-http";
import {
  bulkBody,
  carriesBody,
  headerValue,
  httpMethod,
} from "@vics/shared/testing/fuzz-inputs";
import { FUZZ_TEST_TIMEOUT_MS, fuzz } from "@vics/shared/testing/fuzz";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { LogEntry } from "@vics/server-kit/testing/memory-logger";
import { createTestProxy } from "./testing/index.ts";

// The proxy's key is on the internal plan (100,000 requests a window): a fresh key, and so a
// fresh proxy, every 10,000 requests keeps a 100,000-case run clear of 429s.
const REQUESTS_PER_KEY = 10_000;
// The proxy answers only for its own host: loopback, as no public origin is configured.
const ORIGIN = "http://localhost";

let service: TestService;
let proxy: ReturnType<typeof createTestProxy> | undefined;
let requests = 0;
let upstreamCalls = 0;
const errorsLogged: LogEntry[] = [];

// The built web app, and beside it a file it must never serve.
const site = mkdtempSync(join(tmpdir(), "vics-proxy-fuzz-"));
const webRoot = join(site, "dist");
const INDEX_HTML = "<!doctype html><title>VICS</title>";
const APP_SCRIPT = "console.log('vics');";
const SECRET = "outside the web root";
mkdirSync(join(webRoot, "assets"), { recursive: true });
writeFileSync(join(webRoot, "index.html"), INDEX_HTML);
writeFileSync(join(webRoot, "assets", "app.js"), APP_SCRIPT);
writeFileSync(join(site, "secret.txt"), SECRET);

beforeAll(async () => {
  // Sandbox off: its plates answer 500 and 429 on purpose.
  service = await createTestService({ sandbox: false });
});
afterAll(() => service.close());

function keepErrors(current: ReturnType<typeof createTestProxy>) {
  errorsLogged.push(
    ...current.log.entries.filter((entry) => entry.level === "error"),
  );
}

/** The proxy, a fresh one with a fresh key every REQUESTS_PER_KEY requests. */
async function currentProxy(): Promise<ReturnType<typeof createTestProxy>> {
  if (proxy === undefined || requests % REQUESTS_PER_KEY === 0) {
    if (proxy) keepErrors(proxy);
    const key = await service.createKey("internal", `proxy-${requests}`);
    proxy = createTestProxy({
      apiKey: key,
      upstreamUrl: "http://service.internal",
      webRoot,
      fetch: (input, init) => {
        upstreamCalls++;
        return service.app.fetch(new Request(input, init));
      },
    });
  }
  requests++;
  return proxy;
}

interface Sent extends checks.SentCheck {
  headers?: Record<string, string>;
}

/** The proxy answers with its own request id, never the client's (decision 050). */
const own = (sent: Sent) => ({ ...sent, ownId: true });

function request(sent: Sent): Request {
  const headers = new Headers(sent.headers);
  if (sent.requestId !== undefined)
    headers.set(REQUEST_ID_HEADER, sent.requestId);
  if (sent.contentType != null) headers.set("Content-Type", sent.contentType);
  return new Request(ORIGIN + sent.path, {
    method: sent.method,
    headers,
    body: carriesBody(sent.method) ? sent.body : undefined,
  });
}

const API_LOOKALIKE = /^\/(api|v1)(\/|$)/i;

/**
 * What the contract says, or for the web app's own paths: a file of web/dist, index.html, a 404
 * for a file that is not there, or the proxy's /health.
 */
function expectation(sent: Sent): Expectation {
  const url = ORIGIN + sent.path;
  if (API_LOOKALIKE.test(new URL(url).pathname))
    return expectationFor(
      {
        method: sent.method,
        url,
        authorised: true,
        contentType: sent.contentType,
        body: carriesBody(sent.method) ? sent.body : undefined,
      },
      "/api",
    );
  return { route: "web app", statuses: [200, 404] };
}

/** Sends as the web app does (its client header), and checks the answer. */
async function answerAsWebApp(sent: Sent): Promise<string> {
  const { app } = await currentProxy();
  const response = await app.fetch(request(sent));
  const expected = expectation(sent);
  if (expected.route !== "web app")
    return checkAnswer(response, expected, own(sent), DOCUMENTED_STATUSES);
  // Never a file from outside web/dist, whatever the path.
  const text = await response.text();
  expect(expected.statuses).toContain(response.status);
  expect(text).not.toContain(SECRET);
  if (response.status === 200 && sent.method.toUpperCase() === "GET") {
    // /health is the proxy's own liveness, never the app's page.
    if (new URL(ORIGIN + sent.path).pathname === HEALTH_PATH)
      expect(JSON.parse(text)).toEqual({ status: "ok" });
    else expect([INDEX_HTML, APP_SCRIPT]).toContain(text);
  }
  return `web app: ${response.status}`;
}

/** After a property: a real check still answers, and nothing was logged as an error. */
async function expectStillServing(): Promise<void> {
  const { app } = await currentProxy();
  const check = await app.fetch(
    request({ method: "GET", path: "/api/v1/compliance/AB12CDE" }),
  );
  expect(check.status).toBe(200);
  if (proxy) keepErrors(proxy);
  expect(errorsLogged).toEqual([]);
}

describe("the proxy's routes, wired to the real service, over hostile input", () => {
  checks.propertyTest(
    "a single check: the proxy's 400 for an invalid registration, else the service's 200 or 404",
    {
      name: "proxy: single checks",
      input: checks.singleCheck("/api"),
      answer: answerAsWebApp,
      options: { describe: checks.describeSent },
      outcomes: checks.SINGLE_CHECK_OUTCOMES,
      after: expectStillServing,
    },
  );

  checks.propertyTest(
    "a bulk check: the proxy's 400 or 413 in the service's words, else the service's 200 with one item per registration",
    {
      name: "proxy: bulk checks",
      input: checks.bulkCheck(),
      answer: (bulk) => answerAsWebApp(checks.bulkCheckSent("/api", bulk)),
      options: checks.bulkCheckOptions("/api"),
      outcomes: checks.BULK_CHECK_OUTCOMES,
      after: expectStillServing,
    },
  );

  const paths = fc.oneof(
    fc.webPath(),
    checks.pathsUnder(["/api/v1/", "/api/", "/v1/", "/API/v1/", "/"]),
    fc.constantFrom(
      "/api/v1/openapi.json",
      "/api/v1/openapi.json/",
      "/api/v1/vehicle/bulk-insurance",
      "/api/v1/vehicle/bulk-compliance",
      "/api/v1/compliance/AB12CDE/",
      "/api/v1/compliance/",
      "/api/health",
      "/api",
      "/health",
      "/v1/compliance/AB12CDE",
      "/assets/app.js",
      "/assets/missing.js",
      "/index.html",
      "/vehicle/AB12CDE",
      "/../secret.txt",
      "/%2e%2e/secret.txt",
      "/..%2Fsecret.txt",
      "/..%5Csecret.txt",
      "/assets/..%2F..%2Fsecret.txt",
      "/%2E%2E%2Fsecret.txt",
      "//secret.txt",
      "/",
    ),
  );
  checks.propertyTest(
    "any method on any path: the operation's answer, 405, the proxy's NOT_FOUND for the rest of /api and /v1, else the web app's files",
    {
      name: "proxy: any method, any path",
      input: checks.anyRequest(paths),
      answer: answerAsWebApp,
      options: {
        describe: checks.describeSent,
        examples: checks.plainRequests([
          ["GET", "/api/v1/unknown"],
          ["GET", "/api/v1/openapi.json"],
          ["DELETE", "/api/v1/openapi.json"],
          ["GET", "/"],
          ["GET", "/assets/missing.js"],
        ]),
      },
      outcomes: [
        "unknown route: 404 NOT_FOUND",
        "openapi: 200",
        "openapi: 405 METHOD_NOT_ALLOWED",
        "web app: 200",
        "web app: 404",
      ],
      after: expectStillServing,
    },
  );

  it(
    "any browser headers and Host, from any client: a refusal reaches nothing upstream, and a clean request is never refused",
    async () => {
      const report = await fuzz(
        "proxy: its own refusals",
        fc.record({
          path: fc.oneof(
            checks.singleCheckPaths("/api", ["compliance"]),
            fc.constantFrom(
              "/api/v1/vehicle/AB12CDE/insurance",
              "/api/v1/vehicle/bulk-insurance",
              "/api/v1/openapi.json",
              "/api/v1/unknown",
            ),
          ),
          method: fc.oneof(httpMethod("GET"), httpMethod("POST")),
          body: bulkBody(),
          client: fc.option(fc.oneof(fc.constant("web"), headerValue(20)), {
            nil: undefined,
          }),
          site: fc.option(
            fc.oneof(
              fc.constantFrom("same-origin", "none", "cross-site", "same-site"),
              headerValue(20),
            ),
            { nil: undefined, freq: 2 },
          ),
          origin: fc.option(
            fc.oneof(
              fc.constantFrom(
                ORIGIN,
                "http://localhost:3000",
                "http://evil.example",
                "null",
                "https://localhost",
              ),
              headerValue(30),
            ),
            { nil: undefined, freq: 2 },
          ),
          host: fc.option(
            fc.oneof(
              fc.constantFrom(
                "localhost",
                "127.0.0.1",
                "[::1]",
                "localhost:3000",
                "evil.example",
                "localhost.evil.example",
                "127.0.0.1.nip.io",
              ),
              headerValue(30),
            ),
            { nil: undefined, freq: 2 },
          ),
          declaredBody: fc.option(
            fc.constantFrom<Record<string, string>>(
              { "Content-Length": "5" },
              { "Transfer-Encoding": "chunked" },
            ),
            { nil: undefined, freq: 2 },
          ),
        }),
        async (input) => {
          const { proxy: raw } = await currentProxy();
          // A declared body on a bulk check would be a lie in process (the Request's real
          // body goes with it); over a socket Node keeps the two in step. So only elsewhere.
          const declaredBody = input.path.includes("/bulk-")
            ? undefined
            : input.declaredBody;
          const headers: Record<string, string> = { ...declaredBody };
          if (input.client !== undefined)
            headers["X-VICS-Client"] = input.client;
          if (input.site !== undefined) headers["Sec-Fetch-Site"] = input.site;
          if (input.origin !== undefined) headers.Origin = input.origin;
          if (input.host !== undefined) headers.Host = input.host;
          const sent: Sent = {
            method: input.method,
            path: input.path,
            contentType: input.body.contentType,
            body: input.body.body,
            headers,
          };
          const callsBefore = upstreamCalls;
          const response = await raw.fetch(request(sent));
          const expected = expectation(sent);
          const clean =
            input.client?.trim() &&
            (input.site === undefined ||
              ["same-origin", "none"].includes(input.site)) &&
            (input.origin === undefined || input.origin === ORIGIN) &&
            (input.host === undefined ||
              ["localhost", "127.0.0.1", "[::1]", "localhost:3000"].includes(
                input.host,
              )) &&
            declaredBody === undefined;
          if (clean)
            return `clean, ${await checkAnswer(response, expected, own(sent))}`;
          // A refusal at the edge is the proxy's own problem document, and costs no quota.
          const outcome = await checkAnswer(
            response,
            {
              ...expected,
              statuses: [
                ...expected.statuses,
                ...PROXY_EDGE_STATUSES,
                400,
                413,
              ],
              codes: undefined,
              detail: undefined,
            },
            own(sent),
            [...DOCUMENTED_STATUSES, ...PROXY_EDGE_STATUSES],
          );
          if (PROXY_EDGE_STATUSES.includes(response.status))
            expect(upstreamCalls).toBe(callsBefore);
          return `not clean, ${outcome}`;
        },
        {
          describe: (input) =>
            `${input.method} ${input.path} ${JSON.stringify({
              client: input.client,
              site: input.site,
              origin: input.origin,
              host: input.host,
              ...input.declaredBody,
            })}`,
        },
      );
      const outcomes = Object.keys(report.outcomes);
      expect(outcomes).toEqual(
        expect.arrayContaining([
          "not clean, compliance: 403 FORBIDDEN",
          "not clean, compliance: 421 MISDIRECTED_REQUEST",
        ]),
      );
      expect(
        outcomes.filter((outcome) => /^clean, .*: 200$/.test(outcome)),
      ).not.toEqual([]);
      await expectStillServing();
    },
    FUZZ_TEST_TIMEOUT_MS,
  );
});
