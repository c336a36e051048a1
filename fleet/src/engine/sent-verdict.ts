// The verdict on a request that ended (answered or failed), with a 429 put through the refusal
// triage first (docs/decisions/029), and what the rate gate is to be told of it.
import { judgeAnswer } from "./answer-verdict.ts";
import { judgeFailure } from "./failure-verdict.ts";
import type { Job } from "./job-queue.ts";
import type { JobVerdict } from "./job-verdict.ts";
import type { RateReading } from "./rate-gate.ts";
import type { RefusalTriage } from "./refusal-triage.ts";
import { classifyFailure } from "./request-failure.ts";
import type { RunTuning } from "./run-tuning.ts";
import type { SendOutcome } from "./send-job.ts";

export interface SentVerdict {
  verdict: JobVerdict;
  /** Progress words about a refused batch ("" ends them). */
  note?: string;
  /** What the gate hears: a suspect 429 tells it only that the request ended. */
  reading?: RateReading;
  retryAfterMs?: number;
}

export function judgeSent(
  job: Job,
  sent: Exclude<SendOutcome, { kind: "aborted" }>,
  reading: RateReading | undefined,
  context: {
    triages: RefusalTriage;
    gateWaiting: boolean;
    tuning: RunTuning;
    now: number;
  },
): SentVerdict {
  const { triages, gateWaiting, tuning, now } = context;
  const failure =
    sent.kind === "failed"
      ? classifyFailure(sent.error, sent.timedOut)
      : undefined;
  if (failure?.kind === "throttled") {
    const { retryAfterMs } = failure;
    const triage = triages.refused(job, retryAfterMs, now, gateWaiting);
    if (!triage) {
      const verdict = judgeFailure(job, failure, tuning, now);
      return { verdict, reading, retryAfterMs };
    }
    const believed = triage.spent ? { reading, retryAfterMs } : {};
    return { verdict: triage.verdict, note: triage.note, ...believed };
  }
  // The proxy refused the user before asking the service: that says nothing of the window.
  if (failure?.kind === "access")
    return { verdict: judgeFailure(job, failure, tuning, now), reading };
  // Anything but a 429 shows the window has room: parts held for a probe's word go again.
  const released = triages.answered(now);
  const verdict =
    sent.kind === "answered"
      ? judgeAnswer(job, sent.answer, tuning, now)
      : judgeFailure(
          job,
          failure ?? classifyFailure(sent.error, sent.timedOut),
          tuning,
          now,
        );
  return {
    verdict: {
      ...verdict,
      followUps: [...verdict.followUps, ...released.verdict.followUps],
    },
    note: released.note,
    reading,
  };
}
