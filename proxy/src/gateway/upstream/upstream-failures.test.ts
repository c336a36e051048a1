import { describe, expect, it } from "vitest";
import { PROBLEM_CONTENT_TYPE, ProblemSchema } from "@vics/shared";
import {
  TEST_API_KEY,
  createTestProxy,
  fakeUpstream,
} from "../../testing/index.ts";
import type { UpstreamFetch } from "./upstream-call.ts";

const PATH = "/api/v1/compliance/AB12CDE";

async function problemFrom(response: Response) {
  expect(response.headers.get("Content-Type")).toBe(PROBLEM_CONTENT_TYPE);
  const problem = ProblemSchema.parse(await response.json());
  expect(problem.status).toBe(response.status);
  expect(problem.requestId).toBe(response.headers.get("X-Request-Id"));
  return problem;
}

describe("upstream failures become the proxy's own problems", () => {
  it("unreachable: 502 BAD_GATEWAY, logged with the reason", async () => {
    const refused: UpstreamFetch = () =>
      Promise.reject(
        new TypeError("fetch failed", {
          cause: Object.assign(new Error("connect ECONNREFUSED"), {
            code: "ECONNREFUSED",
          }),
        }),
      );
    const { app, log } = createTestProxy({ fetch: refused });
    const response = await app.request(PATH);
    expect(response.status).toBe(502);
    const problem = await problemFrom(response);
    expect(problem.code).toBe("BAD_GATEWAY");
    expect(problem.detail).toMatch(/could not be reached\. Try again/);
    expect(log.entries).toContainEqual(
      expect.objectContaining({
        level: "warn",
        message: "upstream unreachable",
        fields: expect.objectContaining({ reason: "ECONNREFUSED" }),
      }),
    );
    expect(log.text()).not.toContain(TEST_API_KEY);
  });

  it("a fetch that throws synchronously is also a 502", async () => {
    const broken: UpstreamFetch = () => {
      throw new Error("boom");
    };
    const { app } = createTestProxy({ fetch: broken });
    const response = await app.request(PATH);
    expect(response.status).toBe(502);
  });

  it.each([
    ["HTML", "text/html", "<html>Bad gateway</html>", 200],
    ["plain text", "text/plain", "upstream connect error", 500],
    ["no content type", "", '{"a":1}', 200],
    ["broken JSON", "application/json", '{"registration":', 200],
    ["a redirect", "application/json", "{}", 302],
  ])(
    "an answer in %s: 502, not passed through",
    async (_case, contentType, body, status) => {
      const upstream = fakeUpstream(() => {
        const response = new Response(body, { status });
        if (contentType) response.headers.set("Content-Type", contentType);
        else response.headers.delete("Content-Type");
        return response;
      });
      const { app, log } = createTestProxy({ fetch: upstream.fetch });
      const response = await app.request(PATH);
      expect(response.status).toBe(502);
      const problem = await problemFrom(response);
      expect(problem.code).toBe("BAD_GATEWAY");
      expect(problem.detail).toMatch(/does not understand/);
      expect(JSON.stringify(problem)).not.toContain(body);
      expect(log.entries.map((entry) => entry.message)).toContain(
        "upstream answer outside the contract",
      );
    },
  );

  it("too slow: 504 GATEWAY_TIMEOUT, and the upstream request is aborted", async () => {
    let signal: AbortSignal | undefined;
    const hanging: UpstreamFetch = (_input, init) => {
      signal = init.signal ?? undefined;
      return new Promise<Response>((_resolve, reject) =>
        init.signal?.addEventListener("abort", () =>
          reject(init.signal?.reason),
        ),
      );
    };
    const { app, log } = createTestProxy({ fetch: hanging, timeoutMs: 20 });
    const response = await app.request(PATH);
    expect(response.status).toBe(504);
    const problem = await problemFrom(response);
    expect(problem.code).toBe("GATEWAY_TIMEOUT");
    expect(problem.detail).toBe(
      "The vehicle service did not answer in time. Try again.",
    );
    expect(signal?.aborted).toBe(true);
    expect(log.entries.map((entry) => entry.message)).toContain(
      "upstream timed out",
    );
  });

  it("too slow even when the fetch ignores its signal: still 504", async () => {
    const deaf: UpstreamFetch = () => new Promise<Response>(() => {});
    const { app } = createTestProxy({ fetch: deaf, timeoutMs: 20 });
    const response = await app.request(PATH);
    expect(response.status).toBe(504);
  });

  it("a body that stalls after the headers counts as too slow", async () => {
    const stalled: UpstreamFetch = () =>
      new Response(new ReadableStream({ start() {} }), {
        headers: { "Content-Type": "application/json" },
      });
    const { app } = createTestProxy({ fetch: stalled, timeoutMs: 20 });
    const response = await app.request(PATH);
    expect(response.status).toBe(504);
  });
});
