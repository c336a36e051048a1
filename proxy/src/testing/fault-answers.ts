/**
 * The fault upstream's answers: good ones in the contract's shapes, from made-up but stable
 * data, and the ways an answer can break the contract. Test support, never imported by the app.
 */
import {
  addDays,
  BULK_ERRORS,
  bulkAnswer,
  PROBLEM_CONTENT_TYPE,
  isValidRegistration,
  normaliseRegistration,
  problemDocument,
  ukDate,
  type BulkComplianceItem,
  type BulkItem,
  type ComplianceRecord,
  type InsuranceRecord,
  type ProblemCode,
} from "@vics/shared";

export type Operation =
  "insurance" | "compliance" | "bulk-insurance" | "bulk-compliance";

/** The made-up outcome of a registration: the same every time, so a test can predict it. */
export type FakeOutcome = "insured" | "not-insured" | "not-found";

export function fakeOutcome(registration: string): FakeOutcome {
  let hash = 0;
  for (const char of registration)
    hash = (hash * 31 + char.charCodeAt(0)) % 1009;
  if (hash % 10 === 0) return "not-found";
  if (hash % 10 < 3) return "not-insured";
  return "insured";
}

const VEHICLE = { make: "Ford", model: "Focus", year: 2019, color: "Blue" };
const CHECKS = (value: boolean) => ({
  insuranceValid: value,
  motValid: value,
  roadTaxPaid: value,
  noOutstandingFines: value,
});

/** A policy running from 100 days ago for a year: insured, and not "expiring soon". */
function policy(registration: string) {
  const today = ukDate(new Date());
  return {
    number: `FAULT-${registration}`,
    insurer: "Acorn Mutual",
    type: "Comprehensive",
    validFrom: addDays(today, -100),
    validTo: addDays(today, 265),
  };
}

export function insuranceRecord(registration: string): InsuranceRecord {
  const insured = fakeOutcome(registration) === "insured";
  return {
    registration,
    insured,
    policy: insured ? policy(registration) : null,
    vehicle: VEHICLE,
    lastUpdated: "2026-01-05T09:30:00.000Z",
  };
}

export function complianceRecord(registration: string): ComplianceRecord {
  const compliant = fakeOutcome(registration) === "insured";
  return {
    registration,
    compliant,
    checks: compliant
      ? CHECKS(true)
      : { ...CHECKS(true), insuranceValid: false },
    lastChecked: new Date().toISOString(),
    vehicle: VEHICLE,
  };
}

function bulkInsuranceItem(submitted: string): BulkItem {
  const registration = normaliseRegistration(submitted);
  if (!isValidRegistration(registration))
    return {
      registration: submitted,
      insured: false,
      error: BULK_ERRORS.invalid,
    };
  if (fakeOutcome(registration) === "not-found")
    return { registration, insured: false, error: BULK_ERRORS.notFound };
  const { insured, policy, vehicle } = insuranceRecord(registration);
  return insured
    ? { registration, insured, policy: policy ?? undefined, vehicle }
    : { registration, insured, vehicle };
}

function bulkComplianceItem(submitted: string): BulkComplianceItem {
  const registration = normaliseRegistration(submitted);
  const failed = (error: string, shown = registration) => ({
    registration: shown,
    compliant: false,
    checks: CHECKS(false),
    error,
  });
  if (!isValidRegistration(registration))
    return failed(BULK_ERRORS.invalid, submitted);
  if (fakeOutcome(registration) === "not-found")
    return failed(BULK_ERRORS.notFound);
  const { compliant, checks, vehicle } = complianceRecord(registration);
  return { registration, compliant, checks, vehicle };
}

export function problem(
  status: number,
  code: ProblemCode,
  requestId: string,
  headers: Record<string, string> = {},
): Response {
  const detail = `The fault upstream answers ${code}.`;
  return new Response(
    JSON.stringify(problemDocument({ code, status, detail, requestId })),
    { status, headers: { ...headers, "Content-Type": PROBLEM_CONTENT_TYPE } },
  );
}

/** What the operation answers when nothing goes wrong, as the body's JSON; or a problem. */
export function goodAnswer(
  operation: Operation,
  registrations: readonly string[],
): { json: unknown } | { problem: ProblemCode; status: number } {
  const [single = ""] = registrations;
  switch (operation) {
    case "bulk-insurance":
      return { json: bulkAnswer(registrations.map(bulkInsuranceItem)) };
    case "bulk-compliance":
      return { json: bulkAnswer(registrations.map(bulkComplianceItem)) };
    case "insurance":
    case "compliance": {
      const registration = normaliseRegistration(single);
      if (!isValidRegistration(registration))
        return { problem: "INVALID_REGISTRATION", status: 400 };
      if (fakeOutcome(registration) === "not-found")
        return { problem: "VEHICLE_NOT_FOUND", status: 404 };
      return {
        json:
          operation === "insurance"
            ? insuranceRecord(registration)
            : complianceRecord(registration),
      };
    }
  }
}

/**
 * JSON that is well formed but breaks the contract: a wrong type in a single answer, counts
 * that do not add up in a bulk one.
 */
export function contractBreakingAnswer(
  operation: Operation,
  registrations: readonly string[],
): unknown {
  const good = goodAnswer(operation, registrations);
  const json = "json" in good ? good.json : {};
  if (operation === "insurance") return { ...(json as object), insured: "yes" };
  if (operation === "compliance") return { ...(json as object), checks: "all" };
  const bulk = json as { processed: number; results: unknown[] };
  return { ...bulk, processed: bulk.processed + 1 };
}
