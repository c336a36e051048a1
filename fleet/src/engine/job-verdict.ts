// What the run does with a job once its request has ended: the outcomes it settles, the jobs
// that follow (retries, halves, leftovers) and what the whole run must do (wait, stop, switch
// to single compliance checks). The rules themselves are in answer-verdict.ts (an answer came)
// and failure-verdict.ts (it did not); docs/decisions/012 says why.
import type { ComplianceOutcome, InsuranceOutcome } from "../results.ts";
import { backoffDelay } from "./backoff.ts";
import { answersInsurance, newJob, type Job } from "./job-queue.ts";
import {
  exhaustedReason,
  type AccessLost,
  type TransientCause,
} from "./request-failure.ts";
import type { RunTuning } from "./run-tuning.ts";

/** One part (insurance or compliance) of one registration's result, now final. */
export interface SettledPart {
  registration: string;
  insurance?: InsuranceOutcome;
  compliance?: ComplianceOutcome;
}

export interface JobVerdict {
  settled: SettledPart[];
  followUps: Job[];
  /** A 429: send nothing for this long, unless a later answer contradicts it. */
  retryAfterMs?: number;
  /** The access key was refused: stop, every unanswered registration "not checked". */
  stopRun?: boolean;
  /** The user was refused: pause the run, the job kept as it was, until they sign in again. */
  pauseFor?: AccessLost;
  /** The upstream has no bulk compliance: one check per vehicle from now on. */
  singleCompliance?: boolean;
}

export type RetryTuning = Pick<
  RunTuning,
  "maxAttempts" | "baseDelayMs" | "maxDelayMs" | "random"
>;

/** The outcomes insurance and compliance share. */
export type SharedOutcome =
  | { status: "not-found" }
  | { status: "invalid" }
  | { status: "not-checked"; reason: string };

/** `outcome` as the job's part of `registration`'s result. */
export function settledPart(
  job: Job,
  registration: string,
  outcome: SharedOutcome,
): SettledPart {
  return job.part === "insurance"
    ? { registration, insurance: outcome }
    : { registration, compliance: outcome };
}

export function allNotChecked(job: Job, reason: string): JobVerdict {
  return {
    settled: job.registrations.map((registration) =>
      settledPart(job, registration, { status: "not-checked", reason }),
    ),
    // A bulk compliance job that could not answer leaves insurance open: a fleet manager still
    // learns which vehicles are insured, from a bulk insurance request of its own.
    followUps: answersInsurance(job)
      ? [newJob("insurance", job.registrations)]
      : [],
  };
}

/** Try the job again after a backoff, or, after maxAttempts tries, give its rows up. */
export function retryOrGiveUp(
  job: Job,
  cause: TransientCause,
  tuning: RetryTuning,
  now: number,
): JobVerdict {
  const tries = job.attempts + 1;
  if (tries >= tuning.maxAttempts) {
    return allNotChecked(job, exhaustedReason(cause, tries));
  }
  const readyAt = now + backoffDelay(tries, tuning);
  return {
    settled: [],
    followUps: [{ ...job, attempts: tries, throttled: 0, readyAt }],
  };
}

/** The registration of a single compliance check. */
export function loneRegistration(job: Job): string {
  const [registration] = job.registrations;
  if (registration === undefined) {
    throw new Error("A single check needs one registration.");
  }
  return registration;
}
