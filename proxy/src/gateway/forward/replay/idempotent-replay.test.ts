import { BulkResultSchema, ProblemSchema } from "@vics/shared";
import { describe, expect, it } from "vitest";
import {
  contractAnswer,
  createTestProxy,
  fakeUpstream,
} from "../../../testing/index.ts";
import { INVALID_KEY_DETAIL } from "./idempotent-replay.ts";

/** Decision 028: a bulk request sent again with its Idempotency-Key costs the service nothing. */

const PATH = "/api/v1/vehicle/bulk-insurance";
const KEY = "run-1_chunk-0123456789abcdef";

function bulk(registrations: string[], key?: string) {
  return new Request(`http://localhost${PATH}`, {
    method: "POST",
    body: JSON.stringify({ registrations }),
    headers: {
      "Content-Type": "application/json",
      ...(key === undefined ? {} : { "Idempotency-Key": key }),
    },
  });
}

/** The service's answer, with the rate-limit reading it counted the request in. */
function withRateLimit(remaining: number) {
  return async (request: Request) => {
    const answer = await contractAnswer(request);
    const headers = new Headers(answer.headers);
    headers.set("X-RateLimit-Limit", "1200");
    headers.set("X-RateLimit-Remaining", String(remaining));
    headers.set("X-RateLimit-Reset", "1900000000");
    return new Response(answer.body, { status: answer.status, headers });
  };
}

describe("a bulk request sent again with the same Idempotency-Key and body", () => {
  it("is answered from the proxy's memory, without asking the service again", async () => {
    let remaining = 1199;
    const upstream = fakeUpstream((request) =>
      withRateLimit(remaining--)(request),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });

    const first = await app.request(bulk(["AB12CDE", "LP08SED"], KEY));
    const again = await app.request(bulk(["AB12CDE", "LP08SED"], KEY));

    expect(upstream.requests).toHaveLength(1);
    expect(first.status).toBe(200);
    expect(first.headers.get("X-VICS-Replayed")).toBeNull();
    expect(again.status).toBe(200);
    expect(again.headers.get("X-VICS-Replayed")).toBe("true");
    expect(again.headers.get("X-RateLimit-Remaining")).toBe("1199");
    expect(again.headers.get("Content-Type")).toMatch(/^application\/json/);
    expect(again.headers.get("X-Request-Id")).not.toBe(
      first.headers.get("X-Request-Id"),
    );
    const body = BulkResultSchema.parse(await again.json());
    expect(body).toEqual(BulkResultSchema.parse(await first.json()));
    expect(body.results.map((item) => item.registration)).toEqual([
      "AB12CDE",
      "LP08SED",
    ]);
  });

  it("sent while the first is still with the service, waits for that answer instead of asking twice", async () => {
    let release = () => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    const upstream = fakeUpstream(async (request) => {
      await held;
      return contractAnswer(request);
    });
    const { app } = createTestProxy({ fetch: upstream.fetch });

    const first = app.request(bulk(["AB12CDE"], KEY));
    const again = app.request(bulk(["AB12CDE"], KEY));
    release();
    const answers = await Promise.all([first, again]);

    expect(upstream.requests).toHaveLength(1);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[1]?.headers.get("X-VICS-Replayed")).toBe("true");
  });
});

describe("what is not a replay", () => {
  it("the same key with another body asks the service", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });

    await app.request(bulk(["AB12CDE"], KEY));
    const other = await app.request(bulk(["LP08SED"], KEY));

    expect(upstream.requests).toHaveLength(2);
    expect(other.headers.get("X-VICS-Replayed")).toBeNull();
    const body = BulkResultSchema.parse(await other.json());
    expect(body.results[0]?.registration).toBe("LP08SED");
  });

  it("the same body on the other bulk route asks the service", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });

    await app.request(bulk(["AB12CDE"], KEY));
    const compliance = new Request(bulk(["AB12CDE"], KEY), {});
    const response = await app.request(
      new Request(
        compliance.url.replace("bulk-insurance", "bulk-compliance"),
        compliance,
      ),
    );

    expect(response.status).toBe(200);
    expect(upstream.requests).toHaveLength(2);
  });

  it("an error is not kept: the request sent again asks the service", async () => {
    let calls = 0;
    const upstream = fakeUpstream((request) =>
      ++calls === 1
        ? new Response(
            JSON.stringify({
              status: 500,
              code: "INTERNAL_ERROR",
              title: "Internal error",
              detail: "Something went wrong",
              requestId: "x",
            }),
            {
              status: 500,
              headers: { "Content-Type": "application/problem+json" },
            },
          )
        : contractAnswer(request),
    );
    const { app } = createTestProxy({ fetch: upstream.fetch });

    const failed = await app.request(bulk(["AB12CDE"], KEY));
    const again = await app.request(bulk(["AB12CDE"], KEY));

    expect(failed.status).not.toBe(200);
    expect(again.status).toBe(200);
    expect(again.headers.get("X-VICS-Replayed")).toBeNull();
    expect(upstream.requests).toHaveLength(2);
  });

  it("without a key, every request asks the service", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });

    await app.request(bulk(["AB12CDE"]));
    await app.request(bulk(["AB12CDE"]));

    expect(upstream.requests).toHaveLength(2);
  });

  it("an answer lapses after the time it is kept for", async () => {
    let now = 1_000_000;
    const upstream = fakeUpstream();
    const { app } = createTestProxy({
      fetch: upstream.fetch,
      replay: { maxBytes: 1024 * 1024, ttlMs: 60_000 },
      clock: { now: () => now },
    });

    await app.request(bulk(["AB12CDE"], KEY));
    now += 60_000;
    const later = await app.request(bulk(["AB12CDE"], KEY));

    expect(later.headers.get("X-VICS-Replayed")).toBeNull();
    expect(upstream.requests).toHaveLength(2);
  });

  it("the oldest answers go when the memory bound is reached", async () => {
    const upstream = fakeUpstream();
    // Room for about two one-vehicle answers.
    const { app } = createTestProxy({
      fetch: upstream.fetch,
      replay: { maxBytes: 900, ttlMs: 60_000 },
    });

    for (const registration of ["AB12CDE", "LP08SED", "KX19ABC"])
      await app.request(bulk([registration], `key-${registration}`));
    const newest = await app.request(bulk(["KX19ABC"], "key-KX19ABC"));
    const oldest = await app.request(bulk(["AB12CDE"], "key-AB12CDE"));

    expect(newest.headers.get("X-VICS-Replayed")).toBe("true");
    expect(oldest.headers.get("X-VICS-Replayed")).toBeNull();
    expect(upstream.requests).toHaveLength(4);
  });
});

describe("an Idempotency-Key the proxy refuses", () => {
  it.each([
    ["too short", "abc"],
    ["too long", "k".repeat(129)],
    ["another character", "run 1/chunk 2"],
  ])(
    "%s: the proxy's own 400, in words, and nothing goes upstream",
    async (_, key) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });

      const response = await app.request(bulk(["AB12CDE"], key));

      expect(response.status).toBe(400);
      const problem = ProblemSchema.parse(await response.json());
      expect(problem.code).toBe("MALFORMED_REQUEST");
      expect(problem.detail).toBe(INVALID_KEY_DETAIL);
      expect(upstream.requests).toHaveLength(0);
    },
  );
});
