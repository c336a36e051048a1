// The three requests a fleet run makes, behind an interface so the run engine can be driven by
// the web app's API client (through the proxy, with the user's session), by the HTTP client of
// http-fleet-client.ts (in Node, with a key), or by a test.
import type {
  BulkComplianceResult,
  BulkResult,
  ComplianceRecord,
  RateLimitState,
} from "@vics/shared";

/** A parsed answer and the rate-limit reading that came with it. */
export interface FleetAnswer<T> {
  data: T;
  rateLimit?: RateLimitState;
}

/**
 * Each call rejects with an ApiError (@vics/shared), or with the signal's reason when aborted. A bulk call's
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
