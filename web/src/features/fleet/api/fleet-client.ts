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

/**
 * Each call rejects with an ApiError, or with the signal's reason when aborted. A bulk call's
 * `idempotencyKey` goes as the Idempotency-Key header: the proxy answers the same chunk sent
 * again from memory (decision 028).
 */
export interface FleetClient {
  bulkInsurance(
    registrations: readonly string[],
    signal: AbortSignal,
    idempotencyKey?: string,
  ): Promise<FleetAnswer<BulkResult>>;
  /** The contract's extension: an upstream without it answers 404 or 405. */
  bulkCompliance(
    registrations: readonly string[],
    signal: AbortSignal,
    idempotencyKey?: string,
  ): Promise<FleetAnswer<BulkComplianceResult>>;
  compliance(
    registration: string,
    signal: AbortSignal,
  ): Promise<FleetAnswer<ComplianceRecord>>;
}

const keyHeader = (
  idempotencyKey: string | undefined,
): Record<string, string> =>
  idempotencyKey === undefined ? {} : { "Idempotency-Key": idempotencyKey };

export const apiFleetClient: FleetClient = {
  bulkInsurance: (registrations, signal, idempotencyKey) =>
    apiPostWithRateLimit(
      paths.bulkInsurance(),
      { registrations },
      BulkResultSchema,
      { signal, headers: keyHeader(idempotencyKey) },
    ),
  bulkCompliance: (registrations, signal, idempotencyKey) =>
    apiPostWithRateLimit(
      paths.bulkCompliance(),
      { registrations },
      BulkComplianceResultSchema,
      { signal, headers: keyHeader(idempotencyKey) },
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
