import { describe, expect, it } from "vitest";
import { motDetails } from "../domain/compliance.ts";
import { insuranceStatus } from "../domain/insurance.ts";
import { ageIdentifier, agePeriod } from "./plates.ts";
import { REFERENCE_REGISTRATIONS, addDays, type IsoDate } from "@vics/shared";
import { referenceVehicles } from "./reference.ts";

function reference(registration: string, today: IsoDate) {
  const found = referenceVehicles(today).find(
    (vehicle) => vehicle.registration === registration,
  );
  if (!found) throw new Error(`no reference vehicle ${registration}`);
  return found;
}

/** Every 5th day from `from` to `to`, and `to` itself. */
function days(from: IsoDate, to: IsoDate): IsoDate[] {
  const list: IsoDate[] = [];
  for (let day = from; day < to; day = addDays(day, 5)) list.push(day);
  return [...list, to];
}

describe("referenceVehicles", () => {
  it("builds one vehicle for each registration of the list, in its order", () => {
    expect(
      referenceVehicles("2026-03-10").map((vehicle) => vehicle.registration),
    ).toEqual([...REFERENCE_REGISTRATIONS]);
  });

  // The year a current-format plate's age identifier (3rd and 4th characters) says.
  it.each([
    ["AB12CDE", 2012],
    ["UN51NSD", 2001],
    ["LP08SED", 2008],
    ["MT15EXP", 2015],
    ["NW25CAR", 2025],
    ["TX19NON", 2019],
    ["SR19ORN", 2019],
    ["FN19OUT", 2019],
    ["BD19ALL", 2019],
    ["EX26SON", 2026],
  ])("gives %s the year %i of its plate", (registration, year) => {
    for (const today of ["2026-03-10", "2026-11-23", "2027-06-01"])
      expect(reference(registration, today).vehicle.year, today).toBe(year);
  });

  it.each(["2026-03-10", "2026-11-23", "2027-06-01", "2028-08-30"])(
    "seeded on %s, registers every vehicle in its plate's period, and gives it that year",
    (today) => {
      for (const vehicle of referenceVehicles(today)) {
        const identifier = vehicle.registration.slice(2, 4);
        expect(
          ageIdentifier(vehicle.firstRegistered),
          vehicle.registration,
        ).toBe(identifier);
      }
    },
  );

  it("keeps NW25CAR under 3 years old (MOT exempt) and never registered after the seeding day, whatever that day", () => {
    for (const today of days("2024-01-01", "2035-01-01")) {
      const { firstRegistered, motTests } = reference("NW25CAR", today);
      expect(firstRegistered <= today, today).toBe(true);
      expect(motDetails(firstRegistered, motTests, today).status, today).toBe(
        "exempt",
      );
    }
  });

  it("shows 2025 for NW25CAR for as long as a 25 plate can be under 3 years old, then the relative day", () => {
    expect(reference("NW25CAR", "2028-08-30").firstRegistered).toBe(
      "2025-08-31",
    );
    expect(reference("NW25CAR", "2028-08-31").vehicle.year).not.toBe(2025);
  });

  it("keeps EX26SON insured, for 10 more days, on cover that began no earlier than its first registration and runs under a year", () => {
    for (const today of days("2026-03-01", "2030-01-01")) {
      const { firstRegistered, policies } = reference("EX26SON", today);
      const status = insuranceStatus(policies, today);
      expect(status.insured, today).toBe(true);
      expect(status.policy?.validTo).toBe(addDays(today, 10));
      expect(status.policy!.validFrom >= firstRegistered, today).toBe(true);
      expect(status.policy!.validFrom > addDays(today, -365), today).toBe(true);
    }
  });
});

describe("agePeriod", () => {
  it.each([
    ["25", "2025-03-01", "2025-08-31"],
    ["75", "2025-09-01", "2026-02-28"],
    ["69", "2019-09-01", "2020-02-29"],
    ["51", "2001-09-01", "2002-02-28"],
    ["08", "2008-03-01", "2008-08-31"],
  ])("%s stands for %s to %s", (identifier, from, to) => {
    expect(agePeriod(identifier)).toEqual({ from, to });
    expect(ageIdentifier(from)).toBe(identifier);
    expect(ageIdentifier(to)).toBe(identifier);
    expect(ageIdentifier(addDays(from, -1))).not.toBe(identifier);
    expect(ageIdentifier(addDays(to, 1))).not.toBe(identifier);
  });
});
