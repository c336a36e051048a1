// Sends one job through the FleetClient, with its own time limit, and reports what came back
// without throwing: an answer, a failure (timed out or not), or an abort because the run ended.
import {
  type BulkComplianceResult,
  type BulkResult,
  type ComplianceRecord,
  type RateLimitState,
  isApiError,
} from "@vics/shared";
import type { FleetClient } from "../fleet-client.ts";
import type { Job } from "./job-queue.ts";

export type JobAnswer =
  | { kind: "bulk-insurance"; data: BulkResult }
  | { kind: "bulk-compliance"; data: BulkComplianceResult }
  | { kind: "compliance"; data: ComplianceRecord };

export type SendOutcome =
  | { kind: "answered"; answer: JobAnswer; rateLimit?: RateLimitState }
  | {
      kind: "failed";
      error: unknown;
      timedOut: boolean;
      rateLimit?: RateLimitState;
    }
  /** The run was cancelled or stopped while the request was out: nothing to report. */
  | { kind: "aborted" };

export async function sendJob(
  client: FleetClient,
  job: Job,
  runSignal: AbortSignal,
  timeoutMs: number,
): Promise<SendOutcome> {
  if (runSignal.aborted) return { kind: "aborted" };
  const request = new AbortController();
  const onRunAbort = () => request.abort(runSignal.reason);
  runSignal.addEventListener("abort", onRunAbort, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    request.abort(new Error(`No answer within ${timeoutMs} ms`));
  }, timeoutMs);
  try {
    const answer = await call(client, job, request.signal);
    return { kind: "answered", ...answer };
  } catch (error) {
    if (runSignal.aborted) return { kind: "aborted" };
    const rateLimit = isApiError(error) ? error.rateLimit : undefined;
    return { kind: "failed", error, timedOut, rateLimit };
  } finally {
    clearTimeout(timer);
    runSignal.removeEventListener("abort", onRunAbort);
  }
}

async function call(
  client: FleetClient,
  job: Job,
  signal: AbortSignal,
): Promise<{ answer: JobAnswer; rateLimit?: RateLimitState }> {
  if (job.part === "insurance") {
    const { data, rateLimit } = await client.bulkInsurance(
      job.registrations,
      signal,
    );
    return { answer: { kind: "bulk-insurance", data }, rateLimit };
  }
  if (job.single) {
    const [registration = ""] = job.registrations;
    const { data, rateLimit } = await client.compliance(registration, signal);
    return { answer: { kind: "compliance", data }, rateLimit };
  }
  const { data, rateLimit } = await client.bulkCompliance(
    job.registrations,
    signal,
  );
  return { answer: { kind: "bulk-compliance", data }, rateLimit };
}
