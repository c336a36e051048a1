import {
  BulkResultSchema,
  InsuranceRecordSchema,
  PLAN_LIMITS,
} from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "../logger.ts";
import { createTestService, type TestService } from "../testing.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
  fixedNow,
  postBulk,
} from "../test-support/requests.ts";
import { freshServices } from "../test-support/services.ts";

const PATH = "/v1/vehicle/bulk-insurance";

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await createTestService({ now: fixedNow });
  key = await service.createKey("internal");
});
afterAll(() => service.close());

async function bulkInsurance(registrations: unknown[]) {
  const response = await postBulk(service, PATH, { registrations }, { key });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expectMeteredHeaders(response, PLAN_LIMITS.internal);
  return BulkResultSchema.parse(await response.json());
}

const REFERENCE = [
  "AB12CDE",
  "UN51NSD",
  "LP08SED",
  "MT15EXP",
  "NW25CAR",
  "TX19NON",
  "SR19ORN",
  "FN19OUT",
  "BD19ALL",
  "EX26SON",
];

describe("POST /v1/vehicle/bulk-insurance", () => {
  it("answers one item per submitted registration, in order, duplicates kept, normalised", async () => {
    const answer = await bulkInsurance([
      "ab12 cde",
      "UN51NSD",
      "AB12-CDE",
      "not a plate!",
      "ZZ99ZZZ",
      " lp08sed ",
      "ab12cde",
    ]);
    expect(answer.results.map((item) => item.registration)).toEqual([
      "AB12CDE",
      "UN51NSD",
      "AB12CDE",
      "not a plate!",
      "ZZ99ZZZ",
      "LP08SED",
      "AB12CDE",
    ]);
    expect(answer.results[0]).toEqual(answer.results[2]);
  });

  it("gives each item the contract's fields: policy only when insured, vehicle on every success, error on a failure", async () => {
    const [insured, never, lapsed, invalid, unknown] = (
      await bulkInsurance([
        "AB12CDE",
        "UN51NSD",
        "LP08SED",
        "AB 12 CDE X",
        "ZZ99ZZZ",
      ])
    ).results;
    expect(insured).toMatchObject({
      registration: "AB12CDE",
      insured: true,
      policy: { type: "Comprehensive", validTo: expect.any(String) },
      vehicle: { make: "Ford", model: "Focus", year: 2012, color: "Blue" },
    });
    expect(insured?.error).toBeUndefined();
    expect(never).toEqual({
      registration: "UN51NSD",
      insured: false,
      vehicle: expect.objectContaining({ make: expect.any(String) }),
    });
    expect(lapsed).toEqual({
      registration: "LP08SED",
      insured: false,
      vehicle: expect.objectContaining({ make: expect.any(String) }),
    });
    expect(invalid).toEqual({
      registration: "AB 12 CDE X",
      insured: false,
      error: "Invalid registration format",
    });
    expect(unknown).toEqual({
      registration: "ZZ99ZZZ",
      insured: false,
      error: "Vehicle not found",
    });
  });

  it("counts: processed is the number submitted, successful + failed", async () => {
    const answer = await bulkInsurance([
      "AB12CDE",
      "ZZ99ZZZ",
      "AB12CDE",
      "??",
      "BD19ALL",
      "ZZ99ZZZ",
    ]);
    expect(answer).toMatchObject({ processed: 6, successful: 3, failed: 3 });
  });

  it("answers 200 when every item fails", async () => {
    const answer = await bulkInsurance(["ZZ99ZZZ", "", "12345678"]);
    expect(answer).toMatchObject({ processed: 3, successful: 0, failed: 3 });
  });

  it("agrees with the single check on every reference registration", async () => {
    const answer = await bulkInsurance(REFERENCE);
    for (const [index, registration] of REFERENCE.entries()) {
      const single = InsuranceRecordSchema.parse(
        await (
          await call(service, `/v1/vehicle/${registration}/insurance`, { key })
        ).json(),
      );
      const item = answer.results[index];
      expect(item?.registration).toBe(registration);
      expect(item?.insured, registration).toBe(single.insured);
      expect(item?.vehicle).toEqual(single.vehicle);
      expect(item?.policy).toEqual(single.insured ? single.policy : undefined);
    }
  });

  it("answers exactly 1,000 registrations", async () => {
    const answer = await bulkInsurance(Array(1000).fill("AB12CDE"));
    expect(answer).toMatchObject({ processed: 1000, successful: 1000 });
  });
});

describe("a bulk request against the rate limit and the key", () => {
  const start = freshServices();

  it("counts once, however many registrations it holds", async () => {
    const counted = await start();
    const trial = await counted.createKey("trial");
    const registrations = Array.from({ length: 1000 }, (_, index) =>
      index % 2 ? "AB12CDE" : "ZZ99ZZZ",
    );
    const remaining = [];
    for (let i = 0; i < 3; i++) {
      const response = await postBulk(
        counted,
        PATH,
        { registrations },
        { key: trial },
      );
      expect(response.status).toBe(200);
      expectMeteredHeaders(response, PLAN_LIMITS.trial);
      remaining.push(response.headers.get("X-RateLimit-Remaining"));
    }
    expect(remaining).toEqual(["9", "8", "7"]);
  });

  it.each([
    ["no key", undefined],
    ["an unknown key", "vics_not-a-key"],
  ])("with %s: 401 first, whatever the body", async (_case, invalidKey) => {
    const open = await start();
    for (const body of ["{not json", "x".repeat(100_000)]) {
      const response = await postBulk(open, PATH, body, { key: invalidKey });
      await expectProblem(response, 401, "UNAUTHORIZED");
    }
  });

  it("logs the route template and never a registration", async () => {
    const logger = memoryLogger();
    const logged = await start({ logger });
    const response = await postBulk(
      logged,
      PATH,
      { registrations: ["FN19OUT", "QQ11QQQ"] },
      { key: await logged.createKey("standard") },
    );
    expect(logger.events).toEqual([
      expect.objectContaining({
        method: "POST",
        route: PATH,
        status: 200,
        requestId: response.headers.get("X-Request-Id"),
      }),
    ]);
    const text = JSON.stringify(logger.events);
    expect(text).not.toContain("FN19OUT");
    expect(text).not.toContain("QQ11QQQ");
  });
});
