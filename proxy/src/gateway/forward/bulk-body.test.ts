import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "@vics/shared";
import { MALFORMED_BULK_BODIES } from "@vics/shared/testing/malformed-bulk-bodies";
import {
  TEST_API_KEY,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";
import type { UpstreamFetch } from "../upstream/upstream-call.ts";
import { UPSTREAM_ACCEPT } from "./header-allowlists.ts";

const BULK_PATHS = [
  "/api/v1/vehicle/bulk-insurance",
  "/api/v1/vehicle/bulk-compliance",
];

const json = (value: unknown) => JSON.stringify(value);
const NO_CHECKS = {
  insuranceValid: false,
  motValid: false,
  roadTaxPaid: false,
  noOutstandingFines: false,
};

/** A body produced only as it is read, to tell how much of it the proxy pulled. */
function pulledStream(chunkBytes: number, chunks: number) {
  const chunk = new TextEncoder().encode("x".repeat(chunkBytes));
  let pulled = 0;
  const stream = new ReadableStream<Uint8Array>(
    {
      pull(controller) {
        if (pulled === chunks) return controller.close();
        pulled++;
        controller.enqueue(chunk);
      },
    },
    { highWaterMark: 0 },
  );
  return { stream, pulled: () => pulled };
}

/** Sent as bytes, so the only Content-Type is the one given (none for null). */
function post(
  path: string,
  body: string | ReadableStream<Uint8Array>,
  contentType: string | null = "application/json",
  headers: Record<string, string> = {},
) {
  return new Request(`http://localhost${path}`, {
    method: "POST",
    body: typeof body === "string" ? new TextEncoder().encode(body) : body,
    duplex: "half",
    headers: {
      ...(contentType === null ? {} : { "Content-Type": contentType }),
      ...headers,
    },
  });
}

async function expectOwnProblem(
  response: Response,
  status: number,
  code: string,
) {
  expect(response.status).toBe(status);
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  expect(response.headers.get("Cache-Control")).toBe("no-store");
  const problem = ProblemSchema.parse(await response.json());
  expect(problem).toMatchObject({ status, code });
  expect(problem.requestId).toBe(response.headers.get("X-Request-Id"));
  return problem;
}

describe.each(BULK_PATHS)("POST %s: a malformed body", (path) => {
  it.each(MALFORMED_BULK_BODIES)(
    "%s: the proxy's own 400, and the upstream is never called",
    async (_case, contentType, body, detail) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });
      const response = await app.request(post(path, body, contentType));
      const problem = await expectOwnProblem(
        response,
        400,
        "MALFORMED_REQUEST",
      );
      expect(problem.detail).toBe(detail);
      expect(upstream.requests).toHaveLength(0);
    },
  );

  it("over 64 KiB by Content-Length: 413 without reading the body, upstream never called", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const body = pulledStream(1024, 100);
    const response = await app.request(
      post(path, body.stream, "application/json", {
        "Content-Length": String(100 * 1024),
      }),
    );
    const problem = await expectOwnProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(problem.detail).toContain("maximum of 64 KiB");
    expect(body.pulled()).toBe(0);
    expect(upstream.requests).toHaveLength(0);
  });

  it("over 64 KiB streamed without Content-Length: 413, reading stopped at the limit", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const body = pulledStream(16 * 1024, 64);
    const response = await app.request(post(path, body.stream));
    await expectOwnProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(body.pulled()).toBeLessThanOrEqual(6);
    expect(upstream.requests).toHaveLength(0);
  });

  it("the content type is checked before the size", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(
      post(path, "x".repeat(100 * 1024), "text/plain"),
    );
    await expectOwnProblem(response, 400, "MALFORMED_REQUEST");
  });
});

describe.each(BULK_PATHS)("POST %s: a well-formed body", (path) => {
  it("goes upstream as the validated JSON, not the browser's bytes: unknown members dropped, whitespace gone", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const browserBody = `{
      "registrations" : [ "ab12 cde", "ab12 cde", "x!" ],
      "note": "from the fleet page", "__proto__": {"admin": true}
    }`;
    await app.request(
      post(path, browserBody, "Application/JSON; charset=UTF-8"),
    );
    expect(upstream.requests).toHaveLength(1);
    const sent = upstream.requests[0];
    expect(await sent?.text()).toBe(
      '{"registrations":["ab12 cde","ab12 cde","x!"]}',
    );
    expect(sent?.headers.get("Content-Type")).toBe("application/json");
  });

  it("carries only the allowlisted headers upstream, with the proxy's own key", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(
      post(path, json({ registrations: ["AB12CDE"] }), "application/json", {
        Accept: "application/json",
        "X-API-Key": "the-browser-s-own-key",
        Cookie: "session=abc",
        Authorization: "Bearer stolen",
        "X-Request-Id": "fleet-run-7",
        // Its own origin: another is refused before forwarding (browser-checks.ts).
        Origin: "http://localhost",
      }),
    );
    const sent = Object.fromEntries(upstream.requests[0]?.headers ?? []);
    // A real fetch adds Content-Length for the body it sends; nothing else is added.
    const { "content-length": _length, ...rest } = sent;
    expect(rest).toEqual({
      accept: UPSTREAM_ACCEPT,
      "content-type": "application/json",
      "x-api-key": TEST_API_KEY,
      // The proxy's own id, never the browser's (decision 050).
      "x-request-id": expect.stringMatching(/^[0-9a-f-]{36}$/),
    });
  });

  it("passes the upstream's answer back with its allowlisted headers only", async () => {
    // Each route's own item: the proxy checks the answer against the contract (decision 017).
    const item = path.endsWith("compliance")
      ? { registration: "AB12CDE", compliant: false, checks: NO_CHECKS }
      : { registration: "AB12CDE", insured: false };
    const answer = json({
      results: [item],
      processed: 1,
      successful: 1,
      failed: 0,
    });
    const upstream = fakeUpstream(
      () =>
        new Response(answer, {
          headers: {
            "Content-Type": "application/json",
            "X-RateLimit-Remaining": "41",
            "Set-Cookie": "x=1",
          },
        }),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });
    const response = await app.request(
      post(path, json({ registrations: ["AB12CDE"] })),
    );
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(answer);
    expect(response.headers.get("X-RateLimit-Remaining")).toBe("41");
    expect(response.headers.get("Set-Cookie")).toBeNull();
    expect(response.headers.get("Cache-Control")).toBe("no-store");
  });

  it("an upstream too slow: 504, the request aborted", async () => {
    let signal: AbortSignal | undefined;
    const hanging: UpstreamFetch = (_input, init) => {
      signal = init.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener("abort", () =>
          reject(init.signal?.reason),
        ),
      );
    };
    const { app } = createTestProxy({ fetch: hanging, timeoutMs: 20 });
    const response = await app.request(
      post(path, json({ registrations: ["AB12CDE"] })),
    );
    await expectOwnProblem(response, 504, "GATEWAY_TIMEOUT");
    expect(signal?.aborted).toBe(true);
  });

  it.each([
    ["unreachable", () => Promise.reject(new TypeError("fetch failed"))],
    [
      "answering HTML",
      () =>
        new Response("<html></html>", {
          headers: { "Content-Type": "text/html" },
        }),
    ],
  ] as Array<[string, UpstreamFetch]>)(
    "an upstream %s: 502",
    async (_case, fetch) => {
      const { app } = createTestProxy({ fetch });
      const response = await app.request(
        post(path, json({ registrations: ["AB12CDE"] })),
      );
      await expectOwnProblem(response, 502, "BAD_GATEWAY");
    },
  );

  it("logs the route template, never the body or a registration", async () => {
    const { app, log } = createTestProxy({ fetch: fakeUpstream().fetch });
    await app.request(post(path, json({ registrations: ["FN19OUT"] })));
    await app.request(post(path, json({ registrations: ["QQ11QQQ", 1] })));
    const lines = log.entries.filter((entry) => entry.message === "request");
    expect(lines.map((line) => line.fields)).toEqual([
      expect.objectContaining({ method: "POST", route: path, status: 200 }),
      expect.objectContaining({ method: "POST", route: path, status: 400 }),
    ]);
    expect(log.text()).not.toContain("FN19OUT");
    expect(log.text()).not.toContain("QQ11QQQ");
    expect(log.text()).not.toContain("registrations");
  });
});
