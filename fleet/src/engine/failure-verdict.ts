// The verdict on a job whose request failed: wait and split on a 429, back off and retry a
// failure that may pass, stop the run on a refused key, pause it when the user's session ended
// (or their role changed), and give up on any other refusal.
import { complianceFallback } from "./compliance-fallback.ts";
import type { Job } from "./job-queue.ts";
import {
  allNotChecked,
  retryOrGiveUp,
  type JobVerdict,
  type RetryTuning,
} from "./job-verdict.ts";
import {
  THROTTLED_REASON,
  refusedReason,
  type RequestFailure,
} from "./request-failure.ts";

export function judgeFailure(
  job: Job,
  failure: RequestFailure,
  tuning: RetryTuning,
  now: number,
): JobVerdict {
  switch (failure.kind) {
    case "throttled":
      return { ...throttled(job, tuning), retryAfterMs: failure.retryAfterMs };
    case "transient":
      return retryOrGiveUp(job, failure.cause, tuning, now);
    case "unauthorized":
      return { settled: [], followUps: [], stopRun: true };
    case "access":
      // Sent again as it was, once the run resumes: the same chunk, the same Idempotency-Key,
      // no try counted (the service never saw it).
      return { settled: [], followUps: [job], pauseFor: failure.lost };
    case "refused":
      return (
        complianceFallback(job, failure) ??
        allNotChecked(job, refusedReason(failure.detail))
      );
  }
}

/**
 * A 429 splits a chunk in halves (a registration that is always refused, like the sandbox's
 * ER19THR, is isolated in log2(n) rounds, and the wait is spent anyway); a lone registration
 * refused maxAttempts times in a row ends "not checked". The wait itself is the gate's job.
 */
function throttled(job: Job, tuning: RetryTuning): JobVerdict {
  const { registrations } = job;
  if (registrations.length > 1) {
    const middle = Math.ceil(registrations.length / 2);
    const halves = [
      registrations.slice(0, middle),
      registrations.slice(middle),
    ];
    return {
      settled: [],
      followUps: halves.map((half) => ({
        ...job,
        registrations: half,
        throttled: 0,
      })),
    };
  }
  if (job.throttled + 1 >= tuning.maxAttempts) {
    return allNotChecked(job, THROTTLED_REASON);
  }
  return { settled: [], followUps: [{ ...job, throttled: job.throttled + 1 }] };
}
