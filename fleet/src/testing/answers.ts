// Test support: answers as the vehicle service gives them, checked against the contract's
// types, for the fake upstream and for tests that script their own. Plain `Response`s, so
// they go through the real HTTP client (http-fleet-client.ts) with no mocking library.
import {
  addDays,
  bulkAnswer,
  problemDocument,
  utcDate,
  type BulkComplianceItem,
  type BulkComplianceResult,
  type BulkItem,
  type BulkResult,
  type Policy,
  type ProblemCode,
} from "@vics/shared";

export const VEHICLE = {
  make: "Ford",
  model: "Focus",
  year: 2019,
  color: "Blue",
};
export const CHECKS_PASS = {
  insuranceValid: true,
  motValid: true,
  roadTaxPaid: true,
  noOutstandingFines: true,
};

export function allChecks(value: boolean) {
  return {
    insuranceValid: value,
    motValid: value,
    roadTaxPaid: value,
    noOutstandingFines: value,
  };
}

/**
 * A policy in force on `today`, well away from its end (so not "expiring soon"). The web passes
 * the UK's today, as its pages count days; fleet's own tests take the UTC date.
 */
export function policyFixture(
  overrides: Partial<Policy> = {},
  today: string = utcDate(new Date()),
): Policy {
  return {
    number: "POL-7781-2231",
    insurer: "Northwind Mutual",
    type: "Comprehensive",
    validFrom: addDays(today, -200),
    validTo: addDays(today, 165),
    ...overrides,
  };
}

/** A bulk insurance answer whose counts add up. */
export function bulkBody(results: BulkItem[]): BulkResult {
  return bulkAnswer(results);
}

/** A bulk compliance answer whose counts add up. */
export function bulkComplianceBody(
  results: BulkComplianceItem[],
): BulkComplianceResult {
  return bulkAnswer(results);
}

export function rateLimitHeaders(
  remaining: number,
  limit = 1200,
  reset = 60,
): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(reset),
  };
}

export function problemResponse(
  status: number,
  code: ProblemCode,
  headers: Record<string, string> = {},
): Response {
  const body = problemDocument({
    code,
    status,
    detail: `Detail for ${code}`,
    requestId: "req-fake",
  });
  return Response.json(body, {
    status,
    headers: { ...headers, "Content-Type": "application/problem+json" },
  });
}

export function withHeaders(
  response: Response,
  headers: Record<string, string>,
): Response {
  for (const [name, value] of Object.entries(headers))
    response.headers.set(name, value);
  return response;
}
