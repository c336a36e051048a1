import { describe, expect, it } from "vitest";
import {
  bulkAnswer,
  BulkComplianceResultSchema,
  type BulkItem,
  BulkRequestSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  ProblemSchema,
  paths,
  problemDocument,
  problemType,
} from "./index.ts";

const vehicle = { make: "Ford", model: "Focus", year: 2019, color: "Blue" };
const policy = {
  number: "POL-1",
  insurer: "Acme",
  validFrom: "2026-01-01",
  validTo: "2026-12-31",
  type: "Comprehensive",
};

describe("InsuranceRecordSchema", () => {
  it("accepts an insured record and a never-insured one", () => {
    const base = {
      registration: "AB12CDE",
      vehicle,
      lastUpdated: "2026-11-01T10:00:00.000Z",
    };
    expect(
      InsuranceRecordSchema.safeParse({ ...base, insured: true, policy })
        .success,
    ).toBe(true);
    expect(
      InsuranceRecordSchema.safeParse({ ...base, insured: false, policy: null })
        .success,
    ).toBe(true);
  });
  it("rejects a record without a vehicle or with a bad date", () => {
    expect(
      InsuranceRecordSchema.safeParse({
        registration: "X1",
        insured: false,
        policy: null,
        lastUpdated: "2026-11-01T10:00:00Z",
      }).success,
    ).toBe(false);
    expect(
      InsuranceRecordSchema.safeParse({
        registration: "X1",
        insured: true,
        vehicle,
        policy: { ...policy, validTo: "31/12/2026" },
        lastUpdated: "2026-11-01T10:00:00Z",
      }).success,
    ).toBe(false);
  });
});

describe("BulkRequestSchema", () => {
  it("names the problem", () => {
    const messageOf = (body: unknown) => {
      const parsed = BulkRequestSchema.safeParse(body);
      return parsed.success ? "" : (parsed.error.issues[0]?.message ?? "");
    };
    expect(messageOf({ registrations: [] })).toMatch(/must not be empty/);
    expect(messageOf({ registrations: "AB12CDE" })).toMatch(/array/);
    expect(messageOf({ registrations: [1] })).toMatch(/string/);
    expect(messageOf({ registrations: Array(1001).fill("A1") })).toMatch(
      /1000/,
    );
    expect(messageOf({ registrations: ["A1"] })).toBe("");
  });
});

describe("BulkResultSchema and ComplianceRecordSchema", () => {
  it("accept the contract's shapes", () => {
    expect(
      BulkResultSchema.safeParse({
        results: [
          { registration: "AB12CDE", insured: true, policy, vehicle },
          {
            registration: "ZZ99ZZZ",
            insured: false,
            error: "Vehicle not found",
          },
        ],
        processed: 2,
        successful: 1,
        failed: 1,
      }).success,
    ).toBe(true);
    const record = {
      registration: "AB12CDE",
      compliant: true,
      checks: {
        insuranceValid: true,
        motValid: true,
        roadTaxPaid: true,
        noOutstandingFines: true,
      },
      lastChecked: "2026-11-22T10:00:00Z",
    };
    expect(ComplianceRecordSchema.safeParse(record).success).toBe(true);
    expect(
      ComplianceRecordSchema.safeParse({
        ...record,
        details: {
          mot: { status: "broken", expiry: null },
          tax: { status: "sorn", dueDate: null },
          fines: { count: 0, totalPence: 0 },
        },
      }).success,
    ).toBe(false);
  });
});

describe("the bulk answers' counts", () => {
  const item = { registration: "AB12CDE", insured: true, policy, vehicle };
  it.each([
    [
      "results that do not match processed",
      { results: [item], processed: 2, successful: 2, failed: 0 },
    ],
    [
      "successful + failed that do not add up",
      { results: [item], processed: 1, successful: 1, failed: 1 },
    ],
  ])("rejects %s", (_case, body) => {
    expect(BulkResultSchema.safeParse(body).success).toBe(false);
  });

  it("bulkAnswer counts a failed item by its error, as the schema checks", () => {
    const failed = {
      registration: "ZZ99ZZZ",
      insured: false,
      error: "Vehicle not found",
    };
    const answer = bulkAnswer<BulkItem>([item, failed, item]);
    expect(answer).toEqual({
      results: [item, failed, item],
      processed: 3,
      successful: 2,
      failed: 1,
    });
    expect(BulkResultSchema.safeParse(answer).success).toBe(true);
  });
});

describe("BulkComplianceResultSchema (extension)", () => {
  const checks = {
    insuranceValid: false,
    motValid: false,
    roadTaxPaid: false,
    noOutstandingFines: false,
  };
  it("accepts a success and a failed item, and rejects a failed item without its checks", () => {
    const body = {
      results: [
        { registration: "BD19ALL", compliant: false, checks, vehicle },
        {
          registration: "ZZ99ZZZ",
          compliant: false,
          checks,
          error: "Vehicle not found",
        },
      ],
      processed: 2,
      successful: 1,
      failed: 1,
    };
    expect(BulkComplianceResultSchema.safeParse(body).success).toBe(true);
    expect(
      BulkComplianceResultSchema.safeParse({
        ...body,
        results: [
          body.results[0],
          { registration: "ZZ99ZZZ", compliant: false, error: "x" },
        ],
      }).success,
    ).toBe(false);
  });
});

describe("ProblemSchema", () => {
  it("accepts a problem and rejects an unknown code", () => {
    const problem = {
      type: problemType("VEHICLE_NOT_FOUND"),
      title: "Vehicle not found",
      status: 404,
      detail: "No vehicle found",
      code: "VEHICLE_NOT_FOUND",
      requestId: "r1",
    };
    expect(ProblemSchema.safeParse(problem).success).toBe(true);
    expect(ProblemSchema.safeParse({ ...problem, code: "OOPS" }).success).toBe(
      false,
    );
    expect(problem.type).toMatch(/\/problems\/vehicle-not-found$/);
  });
});

describe("paths", () => {
  it("encodes the registration", () => {
    expect(paths.insurance("AB12CDE")).toBe("/v1/vehicle/AB12CDE/insurance");
    expect(paths.compliance("../x")).toBe("/v1/compliance/..%2Fx");
  });
});

describe("problemDocument", () => {
  it("derives type and title from the code, keeps an extension, and passes the schema", () => {
    const problem = problemDocument({
      code: "VEHICLE_NOT_FOUND",
      status: 404,
      detail: "No vehicle found",
      requestId: "r1",
      suggestions: ["AO1"],
    });
    expect(problem.type).toBe(problemType("VEHICLE_NOT_FOUND"));
    expect(problem.title).toBe("Vehicle not found");
    expect(problem.suggestions).toEqual(["AO1"]);
    expect(ProblemSchema.parse(problem)).toEqual(problem);
  });
});
