// The three requests a fleet run makes, behind an interface so the run engine can be driven
// by the real API client (apiFleetClient) or, in Node, by anything that speaks the contract.
import {
  BulkComplianceResultSchema,
  BulkResultSchema,
  ComplianceRecordSchema,
  paths,
  type BulkComplianceResult,
  type BulkResult,
  type ComplianceRecord,
  type RateLimitState,
} from "@vics/shared";
import {
  apiGetWithRateLimit,
  apiPostWithRateLimit,
} from "../../../lib/api-client.ts";

/** A parsed answer and the rate-limit reading that came with it. */
export interface FleetAnswer<T> {
  data: T;
  rateLimit?: RateLimitState;
}

/** Each call rejects with an ApiError, or with the signal's reason when aborted. */
export interface FleetClient {
  bulkInsurance(
    registrations: readonly string[],
    signal: AbortSignal,
  ): Promise<FleetAnswer<BulkResult>>;
  /** The contract's extension: an upstream without it answers 404 or 405. */
  bulkCompliance(
    registrations: readonly string[],
    signal: AbortSignal,
  ): Promise<FleetAnswer<BulkComplianceResult>>;
  compliance(
    registration: string,
    signal: AbortSignal,
  ): Promise<FleetAnswer<ComplianceRecord>>;
}

export const apiFleetClient: FleetClient = {
  bulkInsurance: (registrations, signal) =>
    apiPostWithRateLimit(
      paths.bulkInsurance(),
      { registrations },
      BulkResultSchema,
      { signal },
    ),
  bulkCompliance: (registrations, signal) =>
    apiPostWithRateLimit(
      paths.bulkCompliance(),
      { registrations },
      BulkComplianceResultSchema,
      { signal },
    ),
  compliance: (registration, signal) =>
    apiGetWithRateLimit(
      paths.compliance(registration),
      ComplianceRecordSchema,
      {
        signal,
      },
    ),
};
