import {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  PLAN_LIMITS,
} from "@vics/shared";
import type { z } from "zod";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { REFERENCE_REGISTRATIONS } from "@vics/shared";
import { createTestService, type TestService } from "../testing/index.ts";
import { BULK_CHECKS } from "../testing/bulk-checks.ts";
import {
  call,
  expectMeteredHeaders,
  fixedNow,
  postBulk,
} from "../testing/requests.ts";
import { freshServices } from "../testing/services.ts";

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await createTestService({ now: fixedNow });
  key = await service.createKey("internal");
});
afterAll(() => service.close());

/** A bulk check's 200 answer, parsed with its schema. */
async function bulk<Check extends { path: string; schema: z.ZodType }>(
  check: Check,
  registrations: unknown[],
): Promise<z.output<Check["schema"]>> {
  const response = await postBulk(
    service,
    check.path,
    { registrations },
    { key },
  );
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expectMeteredHeaders(response, PLAN_LIMITS.internal);
  return check.schema.parse(await response.json()) as z.output<Check["schema"]>;
}

const [bulkInsurance, bulkCompliance] = BULK_CHECKS;

/** LP08SED's cover ended 20 days before the fixed "today" (2026-03-10). */
const LAPSED_ON = "2026-02-18";

async function single(path: string): Promise<unknown> {
  return (await call(service, path, { key })).json();
}

async function insuranceRecord(registration: string) {
  return InsuranceRecordSchema.parse(
    await single(`/v1/vehicle/${registration}/insurance`),
  );
}

/** The single check's policy as a bulk item carries it: `policy` if insured, else `lastPolicy`. */
function policies({ insured, policy }: z.output<typeof InsuranceRecordSchema>) {
  return insured ? { policy } : { lastPolicy: policy };
}

/** The item each bulk check gives a registration, as its single check answers it. */
const ITEM_FROM_SINGLE_CHECK: Record<
  (typeof BULK_CHECKS)[number]["path"],
  (registration: string) => Promise<unknown>
> = {
  async "/v1/vehicle/bulk-insurance"(registration) {
    const record = await insuranceRecord(registration);
    return {
      registration,
      insured: record.insured,
      ...policies(record),
      vehicle: record.vehicle,
    };
  },
  async "/v1/vehicle/bulk-compliance"(registration) {
    const record = ComplianceRecordSchema.parse(
      await single(`/v1/compliance/${registration}`),
    );
    return {
      registration,
      compliant: record.compliant,
      checks: record.checks,
      details: record.details,
      ...policies(await insuranceRecord(registration)),
      vehicle: record.vehicle,
    };
  },
};

describe.each(BULK_CHECKS)("POST $path", (check) => {
  it("answers one item per submitted registration, in order, duplicates kept, normalised", async () => {
    const answer = await bulk(check, [
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

  it("counts: processed is the number submitted, successful + failed", async () => {
    const answer = await bulk(check, [
      "AB12CDE",
      "ZZ99ZZZ",
      "AB12CDE",
      "??",
      "BD19ALL",
      "ZZ99ZZZ",
    ]);
    expect(answer).toMatchObject({ processed: 6, successful: 3, failed: 3 });
  });

  it.each([
    [["ZZ99ZZZ", "", "12345678"], 3],
    [["ZZ99ZZZ", "x"], 2],
  ])("answers 200 when every item fails: %j", async (registrations, count) => {
    const answer = await bulk(check, registrations);
    expect(answer).toMatchObject({
      processed: count,
      successful: 0,
      failed: count,
    });
  });

  it("gives each reference registration the single check's answer", async () => {
    const answer = await bulk(check, [...REFERENCE_REGISTRATIONS]);
    expect(answer).toMatchObject({
      processed: REFERENCE_REGISTRATIONS.length,
      successful: REFERENCE_REGISTRATIONS.length,
      failed: 0,
    });
    for (const [index, registration] of REFERENCE_REGISTRATIONS.entries())
      expect(answer.results[index], registration).toEqual(
        await ITEM_FROM_SINGLE_CHECK[check.path](registration),
      );
  });

  it("answers exactly 1,000 registrations", async () => {
    const answer = await bulk(check, Array(1000).fill("AB12CDE"));
    expect(answer).toMatchObject({ processed: 1000, successful: 1000 });
  });
});

describe("POST /v1/vehicle/bulk-insurance", () => {
  it("gives each item the contract's fields: policy only when insured, the last policy (or null) when not, vehicle on every success, error on a failure", async () => {
    const [insured, never, lapsed, invalid, unknown] = (
      await bulk(bulkInsurance, [
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
      lastPolicy: null,
      vehicle: expect.objectContaining({ make: expect.any(String) }),
    });
    expect(lapsed).toEqual({
      registration: "LP08SED",
      insured: false,
      lastPolicy: {
        number: "REF-LP08SED-2",
        insurer: "Kestrel Direct",
        type: "Third Party, Fire and Theft",
        validFrom: expect.any(String),
        validTo: LAPSED_ON,
      },
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
});

const ALL_FALSE = {
  insuranceValid: false,
  motValid: false,
  roadTaxPaid: false,
  noOutstandingFines: false,
};

describe("POST /v1/vehicle/bulk-compliance (extension)", () => {
  it("keeps the submitted order and duplicates, and fails unknown and invalid items with all four checks false", async () => {
    const answer = await bulk(bulkCompliance, [
      "bd19 all",
      "ZZ99ZZZ",
      "not-a-plate!",
      "BD19-ALL",
    ]);
    expect(answer.results.map((item) => item.registration)).toEqual([
      "BD19ALL",
      "ZZ99ZZZ",
      "not-a-plate!",
      "BD19ALL",
    ]);
    expect(answer.results[1]).toEqual({
      registration: "ZZ99ZZZ",
      compliant: false,
      checks: ALL_FALSE,
      error: "Vehicle not found",
    });
    expect(answer.results[2]).toEqual({
      registration: "not-a-plate!",
      compliant: false,
      checks: ALL_FALSE,
      error: "Invalid registration format",
    });
    expect(answer.results[3]).toEqual(answer.results[0]);
    expect(answer).toMatchObject({ processed: 4, successful: 2, failed: 2 });
  });

  it("carries the policy behind insuranceValid: the current one when insured, else the last lapsed one or null (decision 021)", async () => {
    const [insured, expiring, lapsed, never, unknown] = (
      await bulk(bulkCompliance, [
        "AB12CDE",
        "EX26SON",
        "LP08SED",
        "UN51NSD",
        "ZZ99ZZZ",
      ])
    ).results;
    expect(insured).toMatchObject({
      checks: { insuranceValid: true },
      policy: { type: "Comprehensive", validTo: expect.any(String) },
    });
    expect(insured).not.toHaveProperty("lastPolicy");
    expect(expiring).toMatchObject({
      checks: { insuranceValid: true },
      policy: { number: "REF-EX26SON", insurer: "Harbour Insurance" },
    });
    expect(expiring).not.toHaveProperty("lastPolicy");
    expect(lapsed).toMatchObject({
      checks: { insuranceValid: false },
      lastPolicy: {
        number: "REF-LP08SED-2",
        insurer: "Kestrel Direct",
        validTo: LAPSED_ON,
      },
    });
    expect(lapsed).not.toHaveProperty("policy");
    expect(never).toMatchObject({
      checks: { insuranceValid: false },
      lastPolicy: null,
    });
    expect(never).not.toHaveProperty("policy");
    expect(unknown).not.toHaveProperty("policy");
    expect(unknown).not.toHaveProperty("lastPolicy");
  });
});

describe.each(BULK_CHECKS)(
  "a $check request against the rate limit and the key",
  ({ path }) => {
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
          path,
          { registrations },
          { key: trial },
        );
        expect(response.status).toBe(200);
        expectMeteredHeaders(response, PLAN_LIMITS.trial);
        remaining.push(response.headers.get("X-RateLimit-Remaining"));
      }
      expect(remaining).toEqual(["9", "8", "7"]);
    });

    it("logs the route template and never a registration", async () => {
      const logger = memoryLogger();
      const logged = await start({ logger });
      const response = await postBulk(
        logged,
        path,
        { registrations: ["FN19OUT", "QQ11QQQ"] },
        { key: await logged.createKey("standard") },
      );
      expect(logger.events).toEqual([
        expect.objectContaining({
          method: "POST",
          route: path,
          status: 200,
          requestId: response.headers.get("X-Request-Id"),
        }),
      ]);
      const text = JSON.stringify(logger.events);
      expect(text).not.toContain("FN19OUT");
      expect(text).not.toContain("QQ11QQQ");
    });
  },
);
