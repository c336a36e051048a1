// Rows and results for the fleet feature's tests, written out as the contract shapes them.
import type { Policy, Vehicle } from "@vics/shared";
import type { FleetRow, VehicleResult } from "../lib/fleet-types.ts";

export const FIXTURE_VEHICLE: Vehicle = {
  make: "Ford",
  model: "Focus",
  year: 2012,
  color: "Blue",
};

export function fixturePolicy(
  validTo: string,
  insurer = "Acorn Mutual",
): Policy {
  return {
    number: `POL-${validTo}`,
    insurer,
    type: "Comprehensive",
    validFrom: "2026-01-01",
    validTo,
  };
}

/** A valid row; `extra` are the user's other cells. */
export function validRow(
  line: number,
  registration: string,
  extra: string[] = [],
): FleetRow {
  return { line, submitted: registration, registration, extra };
}

export function invalidRow(line: number, submitted: string): FleetRow {
  return {
    line,
    submitted,
    extra: [],
    invalid: { reason: "Enter a registration in a UK format", suggestions: [] },
  };
}

export function insured(
  registration: string,
  validTo = "2027-06-30",
  insurer?: string,
): VehicleResult {
  return {
    registration,
    insurance: {
      status: "insured",
      policy: fixturePolicy(validTo, insurer),
      vehicle: FIXTURE_VEHICLE,
    },
    checkedAt: "2026-11-23T10:00:00.000Z",
  };
}

export function answered(
  registration: string,
  insurance: VehicleResult["insurance"],
  compliance?: VehicleResult["compliance"],
): VehicleResult {
  return {
    registration,
    insurance,
    compliance,
    checkedAt: "2026-11-23T10:00:00.000Z",
  };
}
