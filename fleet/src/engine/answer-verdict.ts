// The verdict on a job that got an answer: each registration's outcome from its item (both
// parts from a bulk compliance item), the "temporarily unavailable" ones sent again as a small
// chunk of their own, and an answer that breaks the contract retried like a 5xx.
import {
  RETRY,
  complianceOutcomes,
  insuranceOutcomes,
  type BulkVerdict,
} from "./bulk-outcomes.ts";
import { singleComplianceVerdict } from "./compliance-fallback.ts";
import { newJob, type Job } from "./job-queue.ts";
import {
  retryOrGiveUp,
  type JobVerdict,
  type RetryTuning,
  type SettledPart,
} from "./job-verdict.ts";
import type { JobAnswer } from "./send-job.ts";

export function judgeAnswer(
  job: Job,
  answer: JobAnswer,
  tuning: RetryTuning,
  now: number,
): JobVerdict {
  switch (answer.kind) {
    case "bulk-insurance":
      return fromBulk(
        job,
        insuranceOutcomes(job.registrations, answer.data),
        (registration, insurance) => ({ registration, insurance }),
        tuning,
        now,
      );
    case "bulk-compliance":
      return withInsuranceAsked(
        fromBulk(
          job,
          complianceOutcomes(job.registrations, answer.data),
          (registration, { compliance, insurance }) => ({
            registration,
            compliance,
            ...(insurance ? { insurance } : {}),
          }),
          tuning,
          now,
        ),
      );
    case "compliance":
      return singleComplianceVerdict(job, answer.data, tuning, now);
  }
}

function fromBulk<T>(
  job: Job,
  verdict: BulkVerdict<T>,
  settle: (registration: string, outcome: T) => SettledPart,
  tuning: RetryTuning,
  now: number,
): JobVerdict {
  if (!verdict.ok) return retryOrGiveUp(job, "unreadable", tuning, now);
  const settled: SettledPart[] = [];
  const unavailable: string[] = [];
  job.registrations.forEach((registration, index) => {
    const outcome = verdict.outcomes[index];
    if (outcome === RETRY) unavailable.push(registration);
    else if (outcome !== undefined) settled.push(settle(registration, outcome));
  });
  if (unavailable.length === 0) return { settled, followUps: [] };
  // The items the service could not answer this time go again as a small chunk of their own,
  // having been tried as often as the chunk that carried them.
  const leftovers = { ...job, registrations: unavailable };
  const retry = retryOrGiveUp(leftovers, "unavailable", tuning, now);
  return {
    settled: [...settled, ...retry.settled],
    followUps: retry.followUps,
  };
}

/**
 * Items that lack the policy extension (an upstream without decision 021) leave their
 * insurance open: it is asked in bulk, as a run did before the extension. A part already
 * settled as not checked or not found is settled for both, so it is never asked again.
 */
function withInsuranceAsked(verdict: JobVerdict): JobVerdict {
  const lacking = verdict.settled
    .filter((part) => part.compliance && !part.insurance)
    .map((part) => part.registration);
  if (lacking.length === 0) return verdict;
  return {
    ...verdict,
    followUps: [...verdict.followUps, newJob("insurance", lacking)],
  };
}
