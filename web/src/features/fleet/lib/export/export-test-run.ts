// One run's rows and answers covering every outcome, for the export's tests.
import type { Policy, Vehicle } from "@vics/shared";
import type { FleetRow, VehicleResult } from "../fleet-types.ts";
import type { ExportRun } from "./export-columns.ts";

export const TODAY = "2026-11-23";

export const VEHICLE: Vehicle = {
  make: "Ford",
  model: "Focus",
  year: 2019,
  color: "Blue",
};

export function policy(validTo: string): Policy {
  return {
    number: `POL-${validTo}`,
    insurer: "Acorn Mutual",
    type: "Third Party, Fire and Theft",
    validFrom: "2026-01-01",
    validTo,
  };
}

function row(
  line: number,
  submitted: string,
  registration: string | undefined,
  extra: string[],
): FleetRow {
  return registration
    ? { line, submitted, extra, registration }
    : {
        line,
        submitted,
        extra,
        invalid: {
          reason: "Enter a registration in a UK format, like AB12 CDE",
          suggestions: [],
        },
      };
}

/** The user's list: Fleet number, Registration, Make, Joined; registrations second. */
export const EXTRA_COLUMNS = ["Fleet number", "Make", "Joined"];

export const RUN: ExportRun = {
  name: "fleet.xlsx",
  registrationColumn: "Registration",
  registrationColumnIndex: 1,
  extraColumns: EXTRA_COLUMNS,
  checkCompliance: false,
};

export const ROWS: FleetRow[] = [
  row(2, "ab12 cde", "AB12CDE", ["1000", "Ford", "2024-03-01"]),
  row(3, "EX26SON", "EX26SON", ['=HYPERLINK("http://x")', "Ford", ""]),
  row(4, "UN51NSD", "UN51NSD", ["007", "", "1 March 2024"]),
  row(5, "ER19NFD", "ER19NFD", ["2.5", "Audi", ""]),
  row(6, "ER19ERR", "ER19ERR", ["1234567890123456", "Audi", ""]),
  row(7, "AB1O CDE", undefined, ["F6", "Audi", ""]),
  { ...row(8, "AB12-CDE", "AB12CDE", ["F7", "Ford", ""]), excluded: true },
  row(9, "CD34EFG", "CD34EFG", ["F8", "Kia", ""]),
  row(10, "AB12CDE", "AB12CDE", ["F9", "Ford", ""]),
  // Corrected by the user before sending: their list said LPO8SED.
  {
    ...row(11, "LPO8SED", "LP08SED", ["-5", "@home", "2026-02-30"]),
    edited: "LP08SED",
  },
  // A correction that is still not a registration.
  {
    line: 12,
    submitted: "??",
    edited: "LPO8SEDX",
    extra: ["1e5", "Kia", ""],
    invalid: {
      reason: "Registration must be 7 characters or fewer",
      suggestions: [],
    },
  },
];

const at = "2026-11-23T10:00:00.000Z";

export const RESULTS = new Map<string, VehicleResult>([
  [
    "AB12CDE",
    {
      registration: "AB12CDE",
      insurance: {
        status: "insured",
        policy: policy("2027-06-30"),
        vehicle: VEHICLE,
      },
      compliance: {
        status: "checked",
        compliant: true,
        checks: {
          insuranceValid: true,
          motValid: true,
          roadTaxPaid: true,
          noOutstandingFines: true,
        },
        details: {
          insurance: { status: "insured", validTo: "2027-06-30" },
          mot: { status: "valid", expiry: "2027-03-03" },
          tax: { status: "taxed", dueDate: "2027-04-01" },
          fines: { count: 0, totalPence: 0 },
        },
      },
      checkedAt: at,
    },
  ],
  [
    "EX26SON",
    {
      registration: "EX26SON",
      insurance: {
        status: "insured",
        policy: policy("2026-12-03"),
        vehicle: VEHICLE,
      },
      checkedAt: at,
    },
  ],
  [
    "UN51NSD",
    {
      registration: "UN51NSD",
      insurance: {
        status: "not-insured",
        vehicle: { ...VEHICLE, make: "Vauxhall" },
      },
      checkedAt: at,
    },
  ],
  [
    "ER19NFD",
    {
      registration: "ER19NFD",
      insurance: { status: "not-found" },
      compliance: { status: "not-found" },
      checkedAt: at,
    },
  ],
  [
    "ER19ERR",
    {
      registration: "ER19ERR",
      insurance: {
        status: "not-checked",
        reason: "Temporarily unavailable, retry later",
      },
      checkedAt: at,
    },
  ],
  // A policy that ended since the run was saved: still "Insured" as the run answered it.
  [
    "LP08SED",
    {
      registration: "LP08SED",
      insurance: {
        status: "insured",
        policy: policy("2026-11-03"),
        vehicle: VEHICLE,
      },
      checkedAt: at,
    },
  ],
]);
