// Compliance for an upstream without the bulk compliance extension (another v1 service): a
// 404 or 405 to bulk compliance switches the rest of the run to one GET per vehicle, paced by
// the same gate, and each chunk's insurance to bulk insurance (the queue adds that request);
// a single check's 404 means not found and its 400 invalid.
import type { ComplianceRecord } from "@vics/shared";
import { checkedOutcome, recordsAsOfFrom } from "./bulk-outcomes.ts";
import { newJob, type Job } from "./job-queue.ts";
import {
  loneRegistration,
  retryOrGiveUp,
  settledPart,
  type JobVerdict,
  type RetryTuning,
} from "./job-verdict.ts";
import type { RequestFailure } from "./request-failure.ts";

/** A refusal that the compliance fallback answers, or undefined. */
export function complianceFallback(
  job: Job,
  failure: Extract<RequestFailure, { kind: "refused" }>,
): JobVerdict | undefined {
  if (job.part !== "compliance") return undefined;
  if (!job.single) {
    if (failure.status !== 404 && failure.status !== 405) return undefined;
    // The queue turns this chunk, and every later one, into single checks.
    return {
      settled: [],
      followUps: [newJob("compliance", job.registrations)],
      singleCompliance: true,
    };
  }
  const registration = loneRegistration(job);
  // NOT_FOUND is a route the proxy does not know, not a vehicle the service does not.
  if (failure.status === 404 && failure.code !== "NOT_FOUND") {
    return one(settledPart(job, registration, { status: "not-found" }));
  }
  if (failure.status === 400) {
    return one(settledPart(job, registration, { status: "invalid" }));
  }
  return undefined;
}

/** A single check's answer: it must be about the vehicle asked for, and agree with itself. */
export function singleComplianceVerdict(
  job: Job,
  record: ComplianceRecord,
  tuning: RetryTuning,
  now: number,
): JobVerdict {
  const registration = loneRegistration(job);
  const compliance =
    record.registration === registration
      ? checkedOutcome(record, recordsAsOfFrom(record.dataAsOf))
      : undefined;
  if (!compliance) return retryOrGiveUp(job, "unreadable", tuning, now);
  return one({ registration, compliance });
}

function one(settled: JobVerdict["settled"][number]): JobVerdict {
  return { settled: [settled], followUps: [] };
}
