import { parseRegistration } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { complianceVerdict } from "../domain/compliance.ts";
import { insuranceStatus } from "../domain/insurance.ts";
import { DEFAULT_FLEET_SEED, syntheticFleet } from "./fleet.ts";
import { ageIdentifier } from "./plates.ts";
import type { VehicleFacts } from "../domain/vehicle-facts.ts";

const TODAY = "2026-03-10";

function fleet(
  size: number,
  seed = DEFAULT_FLEET_SEED,
  reserved = new Set<string>(),
): VehicleFacts[] {
  return [...syntheticFleet({ size, seed, today: TODAY, reserved })];
}

describe("syntheticFleet", () => {
  it("is deterministic: same seed and day, same vehicles", () => {
    expect(fleet(500)).toEqual(fleet(500));
    expect(fleet(500, 7)).not.toEqual(fleet(500));
  });

  it("never produces a reserved registration, and still produces the full size", () => {
    const taken = fleet(50).map((vehicle) => vehicle.registration);
    const reserved = new Set(taken.slice(0, 10));
    const registrations = fleet(50, DEFAULT_FLEET_SEED, reserved).map(
      (vehicle) => vehicle.registration,
    );
    expect(registrations).toHaveLength(50);
    for (const registration of reserved)
      expect(registrations).not.toContain(registration);
  });

  it("produces unique, valid plates: mostly current format, some prefix, suffix and dateless", () => {
    const vehicles = fleet(5000);
    const formats = new Map<string, number>();
    for (const { registration } of vehicles) {
      const parsed = parseRegistration(registration);
      expect(parsed.ok, registration).toBe(true);
      if (parsed.ok)
        formats.set(parsed.format, (formats.get(parsed.format) ?? 0) + 1);
    }
    expect(new Set(vehicles.map((vehicle) => vehicle.registration)).size).toBe(
      5000,
    );
    expect(formats.get("current")).toBeGreaterThan(3000);
    for (const format of ["prefix", "suffix", "dateless"])
      expect(formats.get(format)).toBeGreaterThan(20);
  });

  it("gives every outcome a realistic share", () => {
    const vehicles = fleet(20_000);
    const share = (test: (vehicle: VehicleFacts) => boolean) =>
      vehicles.filter(test).length / vehicles.length;
    const verdict = (vehicle: VehicleFacts) =>
      complianceVerdict(vehicle, TODAY).details;
    const shares = {
      neverInsured: share((v) => v.policies.length === 0),
      lapsed: share(
        (v) =>
          v.policies.length > 0 && !insuranceStatus(v.policies, TODAY).insured,
      ),
      motExpired: share((v) => verdict(v).mot.status === "expired"),
      motExempt: share((v) => verdict(v).mot.status === "exempt"),
      untaxed: share((v) => verdict(v).tax.status === "untaxed"),
      sorn: share((v) => verdict(v).tax.status === "sorn"),
      unpaidFines: share((v) => verdict(v).fines.count > 0),
    };
    for (const [outcome, value] of Object.entries(shares)) {
      expect(value, outcome).toBeGreaterThan(0.01);
      expect(value, outcome).toBeLessThan(0.25);
    }
  });
});

describe("ageIdentifier", () => {
  it.each([
    ["2019-03-01", "19"],
    ["2019-08-31", "19"],
    ["2019-09-01", "69"],
    ["2020-02-29", "69"],
    ["2001-09-01", "51"],
    ["2002-01-15", "51"],
    ["2005-04-01", "05"],
  ])("a car first registered on %s carries %s", (date, identifier) => {
    expect(ageIdentifier(date)).toBe(identifier);
  });
});
