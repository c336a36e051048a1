import { PLAN_LIMITS } from "@vics/shared";
import { MALFORMED_BULK_BODIES } from "@vics/shared/testing/malformed-bulk-bodies";
import { describe, expect, it } from "vitest";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
  postBulk,
} from "../testing/requests.ts";
import { BULK_CHECKS } from "../testing/bulk-checks.ts";
import { freshServices } from "../testing/services.ts";
import { pulledStream } from "../testing/streams.ts";

const start = freshServices();

async function standardService() {
  const service = await start();
  return { service, key: await service.createKey("standard") };
}

const remaining = (response: Response) =>
  Number(response.headers.get("X-RateLimit-Remaining"));

const json = (value: unknown) => JSON.stringify(value);

/** A well-formed body of exactly `bytes` bytes, padded with JSON whitespace. */
const paddedBody = (bytes: number) => {
  const body = json({ registrations: ["AB12CDE"] });
  return body.slice(0, -1) + " ".repeat(bytes - body.length) + "}";
};

const OVER_LIMIT = 64 * 1024 + 1;

describe.each(BULK_CHECKS)("the body of POST $path", ({ path }) => {
  it.each(MALFORMED_BULK_BODIES)(
    "%s: 400 MALFORMED_REQUEST naming the problem, counted, with every header",
    async (_case, contentType, body, detail) => {
      const { service, key } = await standardService();
      const response = await postBulk(service, path, body, {
        key,
        contentType,
      });
      expectMeteredHeaders(response, PLAN_LIMITS.standard);
      expect(remaining(response)).toBe(PLAN_LIMITS.standard - 1);
      const problem = await expectProblem(response, 400, "MALFORMED_REQUEST");
      expect(problem.detail).toBe(detail);
    },
  );

  it.each([
    "application/json; charset=utf-8",
    "Application/JSON",
    "application/json;charset=UTF-8",
  ])("accepts Content-Type %s", async (contentType) => {
    const { service, key } = await standardService();
    const response = await postBulk(
      service,
      path,
      { registrations: ["AB12CDE"] },
      { key, contentType },
    );
    expect(response.status).toBe(200);
  });

  it("drops members other than registrations", async () => {
    const { service, key } = await standardService();
    const response = await postBulk(
      service,
      path,
      { registrations: ["AB12CDE"], priority: "high" },
      { key },
    );
    expect(response.status).toBe(200);
    expect(((await response.json()) as { processed: number }).processed).toBe(
      1,
    );
  });

  it("accepts a body of exactly 64 KiB", async () => {
    const { service, key } = await standardService();
    const response = await postBulk(service, path, paddedBody(64 * 1024), {
      key,
    });
    expect(response.status).toBe(200);
  });

  it("413 over 64 KiB, counted, with every header and the maximum in the detail", async () => {
    const { service, key } = await standardService();
    const response = await postBulk(service, path, paddedBody(OVER_LIMIT), {
      key,
    });
    expectMeteredHeaders(response, PLAN_LIMITS.standard);
    expect(remaining(response)).toBe(PLAN_LIMITS.standard - 1);
    const problem = await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(problem.detail).toContain("maximum of 64 KiB");
  });

  it("413 from Content-Length alone: not one byte of the body is read", async () => {
    const { service, key } = await standardService();
    const body = pulledStream({ chunkBytes: 1024, chunks: 100 });
    const response = await call(service, path, {
      key,
      body: body.stream,
      headers: {
        "Content-Type": "application/json",
        "Content-Length": String(100 * 1024),
      },
    });
    await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(body.pulled()).toBe(0);
  });

  it("413 for a streamed body without Content-Length: reading stops at the limit", async () => {
    const { service, key } = await standardService();
    // 1 MiB on offer in 16 KiB chunks; the limit is four of them.
    const body = pulledStream({ chunkBytes: 16 * 1024, chunks: 64 });
    const response = await call(service, path, {
      key,
      body: body.stream,
      headers: { "Content-Type": "application/json" },
    });
    await expectProblem(response, 413, "PAYLOAD_TOO_LARGE");
    expect(body.pulled()).toBeLessThanOrEqual(6);
  });

  it("checks the content type before the size, and the size before the JSON", async () => {
    const { service, key } = await standardService();
    const big = "x".repeat(100 * 1024);
    const asText = await postBulk(service, path, big, {
      key,
      contentType: "text/plain",
    });
    expect(
      (await expectProblem(asText, 400, "MALFORMED_REQUEST")).detail,
    ).toMatch(/Content-Type/);
    await expectProblem(
      await postBulk(service, path, big, { key }),
      413,
      "PAYLOAD_TOO_LARGE",
    );
  });

  it.each([
    ["no key", undefined],
    ["an unknown key", "vics_not-a-key"],
  ])("with %s: 401 first, whatever the body", async (_case, invalidKey) => {
    const service = await start();
    for (const body of ["{not json", "x".repeat(100_000)]) {
      const response = await postBulk(service, path, body, {
        key: invalidKey,
      });
      await expectProblem(response, 401, "UNAUTHORIZED");
    }
  });

  it.each(["GET", "HEAD", "PUT", "PATCH", "DELETE"])(
    "%s: 405 with Allow: POST and every header",
    async (method) => {
      const { service, key } = await standardService();
      const response = await call(service, path, { key, method });
      expect(response.status).toBe(405);
      expect(response.headers.get("Allow")).toBe("POST");
      expectMeteredHeaders(response, PLAN_LIMITS.standard);
      if (method !== "HEAD")
        await expectProblem(response, 405, "METHOD_NOT_ALLOWED");
    },
  );
});
