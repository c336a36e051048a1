import { type IncomingMessage, request as httpRequest } from "node:http";
import {
  CLIENT_HEADER,
  PROBLEM_CONTENT_TYPE,
  ProblemSchema,
} from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { describe, expect, it } from "vitest";
import {
  builtWebRoot,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";

/**
 * A path that reads as the API in any spelling is never answered with the web app's HTML:
 * an API client (or a script that checks for JSON) would take a 200 page for an answer. Not
 * a real route: the proxy's JSON 404, with nothing upstream. A spelling that the URL parser
 * turns into a real route (`/api/./v1/...`) gets that route's JSON.
 */

const INDEX_HTML = "<!doctype html><title>VICS</title>";

/** Sent as they are on the wire (the socket test), or through Request (which may tidy them). */
const NOT_ROUTES = [
  "/api%2fv1/compliance/AB12CDE",
  "/api%2Fv1/compliance/AB12CDE",
  "/api%5Cv1/compliance/AB12CDE",
  "//api/v1/compliance/AB12CDE",
  "///api/v1/openapi.json",
  "/api;x/v1/compliance/AB12CDE",
  "/api/v1;x/compliance/AB12CDE",
  "/API/v1/compliance/AB12CDE",
  "/Api/V1/openapi.json",
  "/%2561pi/v1/compliance/AB12CDE",
  "/%41PI/v1/compliance/AB12CDE",
  "/%EF%BD%81%EF%BD%90%EF%BD%89/v1/compliance/AB12CDE",
  "/api%EF%BC%8Fv1/compliance/AB12CDE",
  "/api%20/v1/compliance/AB12CDE",
  "/api%00/v1/compliance/AB12CDE",
  "/x/..%2Fapi/v1/compliance/AB12CDE",
  "/%2e%2e%2fapi/v1/nothing",
  "/api/v1/nothing",
  "/api",
  "/v1/compliance/AB12CDE",
  "//v1/openapi.json",
  "/v1%2fcompliance/AB12CDE",
];

/** The URL parser resolves these to a real route: its JSON answer, still never HTML. */
const ROUTES_IN_DISGUISE = [
  "/%61pi/v1/compliance/AB12CDE",
  "/api/./v1/compliance/AB12CDE",
  "/api/v1/../v1/compliance/AB12CDE",
  "/api/%2e/v1/compliance/AB12CDE",
  "/x/../api/v1/compliance/AB12CDE",
];

function proxyServing() {
  const upstream = fakeUpstream();
  const { proxy } = createTestProxy({
    fetch: upstream.fetch,
    webRoot: builtWebRoot({ "index.html": INDEX_HTML }),
  });
  return { proxy, upstream };
}

interface Answer {
  status: number;
  contentType: string;
  body: string;
}

/** The problem's status and code, or what came instead (the status and type, e.g. HTML). */
function outcome(answer: Answer): string {
  if (answer.contentType !== PROBLEM_CONTENT_TYPE)
    return `${answer.status} ${answer.contentType}`;
  return `${answer.status} ${ProblemSchema.parse(JSON.parse(answer.body)).code}`;
}

function expectJsonNotHtml(answer: Answer) {
  expect(answer.contentType).toMatch(/^application\/(problem\+)?json/);
  expect(answer.body).not.toContain("<!doctype");
}

// A client that asks for JSON gets the 404. A browser tab, which cannot send CLIENT_HEADER,
// gets the 403 of the browser checks where the path starts /api as it is, else the 404.
const CLIENTS = [
  [
    "an API client",
    { Accept: "application/json", [CLIENT_HEADER]: "web" },
    () => "404 NOT_FOUND",
  ],
  [
    "a browser tab",
    { Accept: "text/html" },
    (path: string) =>
      /^\/api(\/|$)/.test(path) ? "403 FORBIDDEN" : "404 NOT_FOUND",
  ],
] as const;

describe("paths that read as the API, in the app", () => {
  it.each(CLIENTS)(
    "%s gets the proxy's JSON problem for every spelling that is not a route",
    async (_client, headers, expected) => {
      const { proxy, upstream } = proxyServing();
      const outcomes: string[] = [];
      for (const path of NOT_ROUTES) {
        const response = await proxy.request(path, { headers });
        outcomes.push(
          `${path}: ${outcome({
            status: response.status,
            contentType: response.headers.get("Content-Type") ?? "",
            body: await response.text(),
          })}`,
        );
      }
      expect(outcomes).toEqual(
        NOT_ROUTES.map((path) => `${path}: ${expected(path)}`),
      );
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("answers the spellings the URL parser resolves to a route with that route's JSON", async () => {
    const { proxy, upstream } = proxyServing();
    for (const path of ROUTES_IN_DISGUISE) {
      const response = await proxy.request(path, {
        headers: { [CLIENT_HEADER]: "web" },
      });
      expect(response.status, path).toBe(200);
      expectJsonNotHtml({
        status: response.status,
        contentType: response.headers.get("Content-Type") ?? "",
        body: await response.text(),
      });
    }
    expect(upstream.requests).toHaveLength(ROUTES_IN_DISGUISE.length);
    for (const sent of upstream.requests)
      expect(new URL(sent.url).pathname).toBe("/v1/compliance/AB12CDE");
  });

  it.each(["/", "/vehicle/AB12CDE", "/apiary", "/fleet/api/v1"])(
    "still answers %s with the app",
    async (path) => {
      const { proxy } = proxyServing();
      const response = await proxy.request(path);
      expect(response.status).toBe(200);
      expect(await response.text()).toBe(INDEX_HTML);
    },
  );
});

describe("paths that read as the API, sent as they are on a real socket", () => {
  const serve = loopbackServers();

  async function listening() {
    const { proxy, upstream } = proxyServing();
    const { port } = await serve(proxy.fetch);
    return { port, upstream };
  }

  function get(port: number, path: string, headers: Record<string, string>) {
    return new Promise<Answer>((resolve, reject) => {
      const sent = httpRequest({
        host: "127.0.0.1",
        port,
        path,
        headers,
      });
      sent.on("response", (response: IncomingMessage) => {
        let body = "";
        response.on("data", (chunk: Buffer) => (body += chunk.toString()));
        response.on("end", () =>
          resolve({
            status: response.statusCode ?? 0,
            contentType: String(response.headers["content-type"] ?? ""),
            body,
          }),
        );
      });
      sent.on("error", reject);
      sent.end();
    });
  }

  it.each(CLIENTS)(
    "%s: a JSON problem for every spelling that is not a route, JSON for the rest, never HTML",
    async (_client, headers, expected) => {
      const { port, upstream } = await listening();
      const outcomes: string[] = [];
      for (const path of NOT_ROUTES)
        outcomes.push(`${path}: ${outcome(await get(port, path, headers))}`);
      expect(outcomes).toEqual(
        NOT_ROUTES.map((path) => `${path}: ${expected(path)}`),
      );
      expect(upstream.requests).toHaveLength(0);
      for (const path of ROUTES_IN_DISGUISE)
        expectJsonNotHtml(await get(port, path, headers));
    },
  );
});
