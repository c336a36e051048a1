import { InsuranceRecordSchema } from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing/index.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
  fixedNow,
} from "../testing/requests.ts";

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await createTestService({ now: fixedNow });
  key = await service.createKey("internal");
});
afterAll(() => service.close());

async function insurance(registration: string) {
  const response = await call(
    service,
    `/v1/vehicle/${encodeURIComponent(registration)}/insurance`,
    { key },
  );
  return {
    response,
    body: response.ok
      ? InsuranceRecordSchema.parse(await response.json())
      : undefined,
  };
}

describe("GET /v1/vehicle/{registration}/insurance", () => {
  it("answers an insured vehicle with its policy and vehicle", async () => {
    const { response, body } = await insurance("AB12CDE");
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toMatch(/^application\/json/);
    expectMeteredHeaders(response, 100_000);
    expect(body).toMatchObject({
      registration: "AB12CDE",
      insured: true,
      policy: { type: "Comprehensive" },
      vehicle: { make: "Ford", model: "Focus", year: 2012, color: "Blue" },
    });
    expect(body?.lastUpdated).toMatch(/Z$/);
  });

  it.each(["ab12 cde", "AB12-CDE", " ab12cde "])(
    "normalises %j",
    async (input) => {
      const { body } = await insurance(input);
      expect(body?.registration).toBe("AB12CDE");
    },
  );

  it("answers a never-insured vehicle with policy null", async () => {
    const { body } = await insurance("UN51NSD");
    expect(body).toMatchObject({ insured: false, policy: null });
  });

  it("shows the lapsed policy of LP08SED, ended 20 days ago", async () => {
    const { body } = await insurance("LP08SED");
    expect(body?.insured).toBe(false);
    expect(body?.policy?.validTo).toBe("2026-02-18");
  });

  it("shows EX26SON insured until 10 days from now", async () => {
    const { body } = await insurance("EX26SON");
    expect(body?.insured).toBe(true);
    expect(body?.policy?.validTo).toBe("2026-03-20");
  });

  // The contract's reference table, written out: the test states the promise, not the code's list.
  it.each([
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
  ])(
    "answers reference registration %s with a valid record",
    async (registration) => {
      const { response, body } = await insurance(registration);
      expect(response.status).toBe(200);
      expect(body?.registration).toBe(registration);
    },
  );

  it.each([
    ["AB", "Enter a registration in a UK format, like AB12 CDE"],
    ["AB12CDEF", "Registration must be 7 characters or fewer"],
    ["A".repeat(100), "Registration must be 7 characters or fewer"],
    ["🚗", "Registration must only include letters A to Z and numbers 0 to 9"],
    [
      "'; DROP TABLE vehicles; --",
      "Registration must only include letters A to Z and numbers 0 to 9",
    ],
    ["../", "Registration must only include letters A to Z and numbers 0 to 9"],
    [" ", "Enter a registration number"],
  ])("answers 400 for %j with the parser's message", async (input, detail) => {
    const { response } = await insurance(input);
    expectMeteredHeaders(response, 100_000);
    const problem = await expectProblem(response, 400, "INVALID_REGISTRATION");
    expect(problem.detail).toBe(detail);
  });

  it("answers 404 VEHICLE_NOT_FOUND for a valid registration it does not hold", async () => {
    const { response } = await insurance("ZZ99ZZZ");
    expectMeteredHeaders(response, 100_000);
    const problem = await expectProblem(response, 404, "VEHICLE_NOT_FOUND");
    expect(problem.detail).toContain("ZZ99 ZZZ");
  });
});
