import { type ComplianceDetails, ComplianceRecordSchema } from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing/index.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
  FIXED_NOW,
  fixedNow,
} from "../testing/requests.ts";

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await createTestService({ now: fixedNow });
  key = await service.createKey("internal");
});
afterAll(() => service.close());

async function compliance(registration: string) {
  const response = await call(
    service,
    `/v1/compliance/${encodeURIComponent(registration)}`,
    { key },
  );
  return {
    response,
    body: response.ok
      ? ComplianceRecordSchema.parse(await response.json())
      : undefined,
  };
}

type Checks = [insurance: boolean, mot: boolean, tax: boolean, fines: boolean];
type DetailExpectation = {
  mot: Partial<ComplianceDetails["mot"]>;
  tax: Partial<ComplianceDetails["tax"]>;
  fines: Partial<ComplianceDetails["fines"]>;
};
const ok: DetailExpectation = {
  mot: { status: "valid" },
  tax: { status: "taxed" },
  fines: { count: 0 },
};

// The contract's reference table, at FIXED_NOW (2026-03-10).
const REFERENCE_OUTCOMES: Array<[string, Checks, DetailExpectation]> = [
  ["AB12CDE", [true, true, true, true], ok],
  ["UN51NSD", [false, true, true, true], ok],
  ["LP08SED", [false, true, true, true], ok],
  [
    "MT15EXP",
    [true, false, true, true],
    { ...ok, mot: { status: "expired", expiry: "2026-01-24" } },
  ],
  ["NW25CAR", [true, true, true, true], { ...ok, mot: { status: "exempt" } }],
  [
    "TX19NON",
    [true, true, false, true],
    { ...ok, tax: { status: "untaxed", dueDate: "2026-02-08" } },
  ],
  ["SR19ORN", [true, true, false, true], { ...ok, tax: { status: "sorn" } }],
  [
    "FN19OUT",
    [true, true, true, false],
    { ...ok, fines: { count: 2, totalPence: 15_000 } },
  ],
  [
    "BD19ALL",
    [false, false, false, false],
    {
      mot: { status: "expired" },
      tax: { status: "untaxed" },
      fines: { count: 1, totalPence: 10_000 },
    },
  ],
  ["EX26SON", [true, true, true, true], { ...ok, mot: { status: "exempt" } }],
];

describe("GET /v1/compliance/{registration}", () => {
  it.each(REFERENCE_OUTCOMES)(
    "gives %s its stated outcome",
    async (registration, checks, details) => {
      const { response, body } = await compliance(registration);
      expect(response.status).toBe(200);
      expectMeteredHeaders(response, 100_000);
      const [insuranceValid, motValid, roadTaxPaid, noOutstandingFines] =
        checks;
      expect(body?.checks).toEqual({
        insuranceValid,
        motValid,
        roadTaxPaid,
        noOutstandingFines,
      });
      expect(body?.compliant).toBe(checks.every(Boolean));
      expect(body?.details).toMatchObject(details);
    },
  );

  it("normalises the registration and stamps the time of the check", async () => {
    const { body } = await compliance("fn19 out");
    expect(body?.registration).toBe("FN19OUT");
    expect(body?.lastChecked).toBe(FIXED_NOW.toISOString());
  });

  it("answers 400 for an invalid registration and 404 for an unknown one", async () => {
    await expectProblem(
      (await compliance("NOT A PLATE")).response,
      400,
      "INVALID_REGISTRATION",
    );
    await expectProblem(
      (await compliance("ZZ99ZZZ")).response,
      404,
      "VEHICLE_NOT_FOUND",
    );
  });
});
