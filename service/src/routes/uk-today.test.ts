// "Today" is the calendar date in the UK (docs/contract.md), for both checks: tested at the hours
// where the UK and UTC dates differ, and across the two clock changes.
import { ComplianceRecordSchema, InsuranceRecordSchema } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { insurancePart, type Store } from "../store/store.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";
import { freshServices } from "../testing/services.ts";
import { call } from "../testing/requests.ts";

const start = freshServices();

/** A vehicle whose cover, MOT and tax all start or end on `day`. */
function vehicleOn(day: string, edge: "starts" | "ends"): VehicleFacts {
  const policy =
    edge === "starts"
      ? { validFrom: day, validTo: "2030-01-01" }
      : { validFrom: "2020-01-01", validTo: day };
  return {
    registration: "KT22UKD",
    vehicle: { make: "Kia", model: "Ceed", year: 2018, color: "White" },
    firstRegistered: "2018-05-01",
    lastUpdated: "2026-01-01T09:00:00.000Z",
    policies: [
      {
        number: "UK-1",
        insurer: "Acorn Mutual",
        type: "Comprehensive",
        ...policy,
      },
    ],
    motTests: [
      {
        testedOn: "2017-05-01",
        expiresOn: edge === "ends" ? day : "2030-01-01",
      },
    ],
    tax: { sorn: false, dueDate: edge === "ends" ? day : "2030-01-01" },
    fines: [],
  };
}

function holding(facts: VehicleFacts) {
  return (store: Store): Store => ({
    ...store,
    findVehicle: async (registration) =>
      registration === facts.registration
        ? facts
        : store.findVehicle(registration),
    findInsurance: async (registration) =>
      registration === facts.registration
        ? insurancePart(facts)
        : store.findInsurance(registration),
  });
}

async function checksAt(instant: string, facts: VehicleFacts) {
  const service = await start({
    now: () => new Date(instant),
    wrapStore: holding(facts),
  });
  const key = await service.createKey("internal");
  const insurance = InsuranceRecordSchema.parse(
    await (
      await call(service, "/v1/vehicle/KT22UKD/insurance", { key })
    ).json(),
  );
  const compliance = ComplianceRecordSchema.parse(
    await (await call(service, "/v1/compliance/KT22UKD", { key })).json(),
  );
  return { insurance, compliance };
}

describe("today is the UK's date", () => {
  it.each([
    // [instant (UTC), the UK date then, whether that day is `day`]
    ["summer, 00:30 BST", "2026-07-14T23:30:00.000Z", "2026-07-15"],
    [
      "summer, 23:30 BST the evening before",
      "2026-07-14T22:30:00.000Z",
      "2026-07-14",
    ],
    ["winter, 23:30 GMT", "2026-01-14T23:30:00.000Z", "2026-01-14"],
    ["winter, 00:00 GMT", "2026-01-15T00:00:00.000Z", "2026-01-15"],
    [
      "the evening the clocks go forward, 23:30 BST",
      "2026-03-29T22:30:00.000Z",
      "2026-03-29",
    ],
    [
      "the night after the clocks go forward, 00:30 BST",
      "2026-03-29T23:30:00.000Z",
      "2026-03-30",
    ],
    [
      "the night the clocks go back, 00:30 BST",
      "2026-10-24T23:30:00.000Z",
      "2026-10-25",
    ],
    [
      "the evening after the clocks go back, 23:30 GMT",
      "2026-10-25T23:30:00.000Z",
      "2026-10-25",
    ],
  ])(
    "%s: cover starting on the UK date counts",
    async (_when, instant, ukToday) => {
      const { insurance, compliance } = await checksAt(
        instant,
        vehicleOn(ukToday, "starts"),
      );
      expect(insurance.insured).toBe(true);
      expect(compliance.checks.insuranceValid).toBe(true);
      expect(compliance.compliant).toBe(true);
    },
  );

  it("00:30 on a summer morning: cover starting that day is on, though UTC is still on the day before", async () => {
    const { insurance } = await checksAt(
      "2026-07-14T23:30:00.000Z",
      vehicleOn("2026-07-15", "starts"),
    );
    expect(insurance).toMatchObject({
      insured: true,
      policy: { validFrom: "2026-07-15" },
    });
  });

  it("00:30 on a summer morning: cover, MOT and tax that ended the UK day before have lapsed", async () => {
    const { insurance, compliance } = await checksAt(
      "2026-07-14T23:30:00.000Z",
      vehicleOn("2026-07-14", "ends"),
    );
    expect(insurance.insured).toBe(false);
    expect(compliance.checks).toEqual({
      insuranceValid: false,
      motValid: false,
      roadTaxPaid: false,
      noOutstandingFines: true,
    });
  });

  it("23:30 on a winter evening: cover ending that day still counts", async () => {
    const { insurance, compliance } = await checksAt(
      "2026-01-14T23:30:00.000Z",
      vehicleOn("2026-01-14", "ends"),
    );
    expect(insurance.insured).toBe(true);
    expect(compliance.compliant).toBe(true);
  });

  it("23:30 on a winter evening: cover starting the next day has not started", async () => {
    const { insurance } = await checksAt(
      "2026-01-14T23:30:00.000Z",
      vehicleOn("2026-01-15", "starts"),
    );
    expect(insurance).toMatchObject({ insured: false, policy: null });
  });
});
