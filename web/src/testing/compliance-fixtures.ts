// Compliance records for msw handlers, built and checked with the shared contract schema.
import {
  ComplianceRecordSchema,
  type ComplianceChecks,
  type ComplianceDetails,
  type ComplianceRecord,
  type Vehicle,
} from "@vics/shared";

/** November: UK time equals UTC, so "10:15" reads the same in every assertion. */
export const CHECKED_AT = "2026-11-22T10:15:00.000Z";

const PASSING_DETAILS: ComplianceDetails = {
  mot: { status: "valid", expiry: "2027-03-03" },
  tax: { status: "taxed", dueDate: "2027-04-01" },
  fines: { count: 0, totalPence: 0 },
};

interface ComplianceOverrides {
  registration?: string;
  checks?: Partial<ComplianceChecks>;
  details?: Partial<ComplianceDetails> | null;
  lastChecked?: string;
  /** The optional extension (decision 008); absent unless given, as from an older service. */
  vehicle?: Vehicle;
}

/**
 * A compliant AB12CDE unless overridden; `compliant` follows the checks, as the contract says.
 * Its details have no `insurance`, so by default the dashboard falls back to the insurance check.
 */
export function complianceFixture(
  overrides: ComplianceOverrides = {},
): ComplianceRecord {
  const checks: ComplianceChecks = {
    insuranceValid: true,
    motValid: true,
    roadTaxPaid: true,
    noOutstandingFines: true,
    ...overrides.checks,
  };
  return ComplianceRecordSchema.parse({
    registration: overrides.registration ?? "AB12CDE",
    compliant: Object.values(checks).every(Boolean),
    checks,
    lastChecked: overrides.lastChecked ?? CHECKED_AT,
    details:
      overrides.details === null
        ? undefined
        : { ...PASSING_DETAILS, ...overrides.details },
    vehicle: overrides.vehicle,
  });
}
