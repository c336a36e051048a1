import { ComplianceRecordSchema } from "@vics/shared";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createTestService, type TestService } from "../testing/index.ts";
import type { Store } from "../store/store.ts";
import { call, expectProblem, fixedNow } from "../testing/requests.ts";

// The reference plates are all current-format, where no O/0 or I/1 swap stays valid, so this
// store also holds AB12CDE's record under the dateless plate AO1 (a lookalike of A01).
function holdingAlso(registration: string, copyOf: string) {
  return (store: Store): Store => {
    const renamed = async () => {
      const facts = await store.findVehicle(copyOf);
      return facts && { ...facts, registration };
    };
    return Object.assign(Object.create(store) as Store, {
      findVehicle: async (wanted: string) =>
        wanted === registration ? renamed() : store.findVehicle(wanted),
      findVehicles: async (wanted: readonly string[]) => {
        const found = await store.findVehicles(wanted);
        const extra = wanted.includes(registration)
          ? await renamed()
          : undefined;
        if (extra) found.set(registration, extra);
        return found;
      },
    });
  };
}

let service: TestService;
let key: string;
beforeAll(async () => {
  service = await createTestService({
    now: fixedNow,
    wrapStore: holdingAlso("AO1", "AB12CDE"),
  });
  key = await service.createKey("internal");
});
afterAll(() => service.close());

describe("not found, with the lookalikes we hold", () => {
  it.each([["/v1/vehicle/A01/insurance"], ["/v1/compliance/A01"]])(
    "%s suggests AO1",
    async (path) => {
      const problem = await expectProblem(
        await call(service, path, { key }),
        404,
        "VEHICLE_NOT_FOUND",
      );
      expect(problem.suggestions).toEqual(["AO1"]);
    },
  );

  it("suggests nothing when no lookalike is held (and omits the member)", async () => {
    const problem = await expectProblem(
      await call(service, "/v1/vehicle/B01/insurance", { key }),
      404,
      "VEHICLE_NOT_FOUND",
    );
    expect(problem).not.toHaveProperty("suggestions");
  });
});

describe("compliance extensions", () => {
  it.each([
    ["AB12CDE", "insured"],
    ["LP08SED", "lapsed"],
    ["UN51NSD", "none"],
  ] as const)(
    "%s: vehicle and details.insurance %s",
    async (registration, status) => {
      const response = await call(service, `/v1/compliance/${registration}`, {
        key,
      });
      const record = ComplianceRecordSchema.parse(await response.json());
      expect(record.vehicle?.make).toMatch(/\w/);
      expect(record.details?.insurance?.status).toBe(status);
      expect(record.details?.insurance?.validTo === null).toBe(
        status === "none",
      );
      expect(record.checks.insuranceValid).toBe(status === "insured");
    },
  );
});

describe("a held lookalike beyond the five nearest", () => {
  // OOO0O (suffix format) has seven valid lookalikes; O0000 is the sixth nearest.
  let farService: TestService;
  let farKey: string;
  beforeAll(async () => {
    farService = await createTestService({
      now: fixedNow,
      wrapStore: holdingAlso("O0000", "AB12CDE"),
    });
    farKey = await farService.createKey("internal");
  });
  afterAll(() => farService.close());

  it("is still suggested: every candidate is looked up before the list is cut", async () => {
    const problem = await expectProblem(
      await call(farService, "/v1/vehicle/OOO0O/insurance", { key: farKey }),
      404,
      "VEHICLE_NOT_FOUND",
    );
    expect(problem.suggestions).toEqual(["O0000"]);
  });
});
