// A point-in-time question through the proxy (decision 041): only a validated `date` and
// `asKnownAt` reach the service, a malformed one is refused here in the service's words, and
// the real service answers it through the proxy.
import { afterEach, describe, expect, it } from "vitest";
import {
  BulkResultSchema,
  InsuranceRecordSchema,
  ProblemSchema,
} from "@vics/shared";
import { createTestService, type TestService } from "@vics/service/testing";
import { createTestProxy, fakeUpstream } from "../../testing/index.ts";

const INSURANCE = "/api/v1/vehicle/AB12CDE/insurance";
const BULK = "/api/v1/vehicle/bulk-insurance";

const post = (path: string, body: unknown) =>
  new Request(`http://localhost${path}`, {
    method: "POST",
    body: JSON.stringify(body),
    headers: { "Content-Type": "application/json" },
  });

describe("what the service is asked", () => {
  it("a single check: the date and the instant asked, as the query string, and nothing else", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(
      `${INSURANCE}?date=2026-06-08&asKnownAt=2026-06-09T12:00:00%2B01:00&evil=%3Cx%3E&date=2026-06-09`,
    );
    const sent = new URL(upstream.requests[0]?.url ?? "");
    expect(sent.pathname).toBe("/v1/vehicle/AB12CDE/insurance");
    expect([...sent.searchParams]).toEqual([
      ["date", "2026-06-08"],
      ["asKnownAt", "2026-06-09T12:00:00+01:00"],
    ]);
  });

  it("a single check without them: no query string at all", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(`${INSURANCE}?utm_source=mail`);
    expect(new URL(upstream.requests[0]?.url ?? "").search).toBe("");
  });

  it("a bulk check: the date and the instant in the validated body", async () => {
    const upstream = fakeUpstream();
    const { app } = createTestProxy({ fetch: upstream.fetch });
    await app.request(
      post(BULK, {
        registrations: ["AB12CDE"],
        date: "2026-06-08",
        extra: "dropped",
      }),
    );
    expect(await upstream.requests[0]?.json()).toEqual({
      registrations: ["AB12CDE"],
      date: "2026-06-08",
    });
  });

  it.each([
    [`${INSURANCE}?date=8%2F6%2F2026`, undefined],
    [`${INSURANCE}?asKnownAt=2026-06-09`, undefined],
    [BULK, { registrations: ["AB12CDE"], date: "2026-02-30" }],
  ])(
    "refuses %s itself, in the service's words, and asks the service nothing",
    async (path, body) => {
      const upstream = fakeUpstream();
      const { app } = createTestProxy({ fetch: upstream.fetch });
      const response = await app.request(
        body === undefined ? path : post(path, body),
      );
      expect(response.status).toBe(400);
      const problem = ProblemSchema.parse(await response.json());
      expect(problem.code).toBe("MALFORMED_REQUEST");
      expect(problem.detail).toMatch(/^(date|asKnownAt) must be/);
      expect(upstream.requests).toHaveLength(0);
    },
  );
});

describe("through the proxy to the real service", () => {
  let service: TestService;
  afterEach(() => service.close());

  it("answers on a date, says which, and refuses a future one with the service's 400", async () => {
    service = await createTestService({
      now: () => new Date("2026-03-10T12:00:00.000Z"),
    });
    const key = await service.createKey("standard", "proxy");
    const { app } = createTestProxy({
      apiKey: key,
      fetch: (input, init) => service.app.fetch(new Request(input, init)),
    });
    const response = await app.request(`${INSURANCE}?date=2026-03-01`);
    expect(response.status).toBe(200);
    const record = InsuranceRecordSchema.parse(await response.json());
    expect(record.asOf).toEqual({
      date: "2026-03-01",
      knownAt: "2026-03-10T12:00:00.000Z",
    });
    expect(record.dataAsOf?.insurance).toBe("2026-03-10T00:00:00.000Z");
    const future = await app.request(`${INSURANCE}?date=2026-03-11`);
    expect(future.status).toBe(400);
    expect(ProblemSchema.parse(await future.json()).code).toBe(
      "DATE_OUT_OF_RANGE",
    );
    const bulk = await app.request(
      post(BULK, { registrations: ["AB12CDE"], date: "2026-03-01" }),
    );
    expect(BulkResultSchema.parse(await bulk.json()).asOf?.date).toBe(
      "2026-03-01",
    );
  });
});
