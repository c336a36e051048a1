import {
  BulkComplianceResultSchema,
  ComplianceRecordSchema,
  PLAN_LIMITS,
} from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing.ts";
import {
  call,
  expectMeteredHeaders,
  fixedNow,
  postBulk,
} from "../test-support/requests.ts";

const PATH = "/v1/vehicle/bulk-compliance";

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await createTestService({ now: fixedNow });
  key = await service.createKey("internal");
});
afterAll(() => service.close());

async function bulkCompliance(registrations: unknown[]) {
  const response = await postBulk(service, PATH, { registrations }, { key });
  expect(response.status).toBe(200);
  expect(response.headers.get("content-type")).toMatch(/^application\/json/);
  expectMeteredHeaders(response, PLAN_LIMITS.internal);
  return BulkComplianceResultSchema.parse(await response.json());
}

const ALL_FALSE = {
  insuranceValid: false,
  motValid: false,
  roadTaxPaid: false,
  noOutstandingFines: false,
};

describe("POST /v1/vehicle/bulk-compliance (extension)", () => {
  it("gives each reference registration the single compliance check's verdict, details and vehicle", async () => {
    const registrations = [
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
    const answer = await bulkCompliance(registrations);
    expect(answer).toMatchObject({ processed: 10, successful: 10, failed: 0 });
    for (const [index, registration] of registrations.entries()) {
      const single = ComplianceRecordSchema.parse(
        await (
          await call(service, `/v1/compliance/${registration}`, { key })
        ).json(),
      );
      expect(answer.results[index]).toEqual({
        registration,
        compliant: single.compliant,
        checks: single.checks,
        details: single.details,
        vehicle: single.vehicle,
      });
    }
  });

  it("keeps the submitted order and duplicates, and fails unknown and invalid items with all four checks false", async () => {
    const answer = await bulkCompliance([
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

  it("answers 200 when every item fails", async () => {
    const answer = await bulkCompliance(["ZZ99ZZZ", "x"]);
    expect(answer).toMatchObject({ processed: 2, successful: 0, failed: 2 });
  });
});
