// Response bodies for msw handlers, built and checked with the shared contract schemas.
import {
  InsuranceRecordSchema,
  PROBLEM_TITLES,
  ProblemSchema,
  problemType,
  type InsuranceRecord,
  addDays,
  type Policy,
  type Problem,
  type ProblemCode,
} from "@vics/shared";
import { ukToday } from "../lib/dates.ts";
import { policyFixture as fleetPolicyFixture } from "@vics/fleet/testing/answers";

/** "YYYY-MM-DD" `days` from today (the UK's date); negative is in the past. */
export function daysFromToday(days: number): string {
  return addDays(ukToday(), days);
}

/** @vics/fleet's policy in force, dated from the UK's today as the pages count days. */
export function policyFixture(overrides: Partial<Policy> = {}): Policy {
  return fleetPolicyFixture(overrides, ukToday());
}

export function insuranceFixture(
  overrides: Partial<InsuranceRecord> = {},
): InsuranceRecord {
  return InsuranceRecordSchema.parse({
    registration: "AB12CDE",
    insured: true,
    policy: policyFixture(),
    vehicle: { make: "Ford", model: "Focus", year: 2019, color: "Blue" },
    lastUpdated: "2026-03-01T09:30:00.000Z",
    ...overrides,
  });
}

export function problemFixture(
  code: ProblemCode,
  status: number,
  requestId = "req-test-0001",
  extensions: Pick<Problem, "suggestions" | "ownLimit"> = {},
): Problem {
  return ProblemSchema.parse({
    type: problemType(code),
    title: PROBLEM_TITLES[code],
    status,
    detail: `Detail for ${code}`,
    code,
    requestId,
    ...extensions,
  });
}

export function rateLimitHeaders(
  remaining: number,
  limit = 120,
  reset = 42,
): Record<string, string> {
  return {
    "X-RateLimit-Limit": String(limit),
    "X-RateLimit-Remaining": String(remaining),
    "X-RateLimit-Reset": String(reset),
  };
}

/** The proxy's reading of the person's own budget, in look-ups: what the header's meter shows. */
export function ownLimitHeaders(
  remaining: number,
  limit = 120,
  reset = 42,
): Record<string, string> {
  return {
    "X-Own-Limit": String(limit),
    "X-Own-Remaining": String(remaining),
    "X-Own-Reset": String(reset),
  };
}
