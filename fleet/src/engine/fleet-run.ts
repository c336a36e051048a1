// The fleet run engine: sends the registrations in chunks through a FleetClient, paced by the
// rate limit, retrying what can be retried, until every registration has exactly one result
// (or the run is cancelled). Plain TypeScript: fetch, AbortController and setTimeout only, so
// the same engine runs in the browser and in Node. The rules are in docs/decisions/012.
import { formatRegistration } from "@vics/shared";
import type { VehicleResult } from "../results.ts";
import { JobQueue, type Job } from "./job-queue.ts";
import { ProgressMeter } from "./progress-meter.ts";
import { RateGate, type RateReading } from "./rate-gate.ts";
import { UNAUTHORIZED_REASON } from "./request-failure.ts";
import { RefusalTriage } from "./refusal-triage.ts";
import { ResultAssembly } from "./result-assembly.ts";
import type { FleetRun, FleetRunOptions, RunEnd } from "./fleet-run-types.ts";
import { resolveTuning } from "./run-tuning.ts";
import { sendJob } from "./send-job.ts";
import { judgeSent } from "./sent-verdict.ts";
import { WakeSignal, sleepOrWake } from "./wake-signal.ts";

export type { FleetRun, FleetRunOptions, RunEnd } from "./fleet-run-types.ts";

const waitMessage = (until: number, now: number, what: string) =>
  `Waiting ${Math.max(1, Math.ceil((until - now) / 1000))} s ${what}`;

export function createFleetRun(options: FleetRunOptions): FleetRun {
  const tuning = resolveTuning(options.tuning);
  const { registrations, checkCompliance, client } = options;
  const queue = new JobQueue(registrations, tuning.chunkSize, checkCompliance);
  const gate = new RateGate();
  const triages = new RefusalTriage(tuning.maxAttempts);
  const assembly = new ResultAssembly(
    registrations,
    checkCompliance,
    tuning.now,
  );
  const meter = new ProgressMeter(
    registrations.length,
    tuning.now,
    tuning.progressIntervalMs,
    options.onProgress,
  );
  const wake = new WakeSignal();
  // Aborted on abandon, on a refused access key, when saving fails, and when a stop's grace ends.
  const ending = new AbortController();
  const tasks = new Set<Promise<void>>();
  let started = false;
  let paused = false;
  let cancelled = false;
  let delivered = 0;
  // The user's stop: nothing more is sent, and the answers already asked for are awaited and
  // kept (the service has counted those requests; dropping them would ask again on resume).
  let stopping = false;
  let unauthorized = false;
  let saveFailure: { error: unknown } | undefined;

  function end(): void {
    ending.abort();
    wake.notify();
  }

  async function deliver(results: VehicleResult[]): Promise<void> {
    if (results.length === 0) return;
    await options.onResults(results);
    delivered += results.length;
    meter.answered(results);
  }

  async function runJob(job: Job): Promise<void> {
    const sent = await sendJob(
      client,
      job,
      ending.signal,
      tuning.requestTimeoutMs,
    );
    const now = tuning.now();
    if (sent.kind === "aborted") return gate.settled(now);
    const reading: RateReading | undefined = sent.rateLimit && {
      ...sent.rateLimit,
      receivedAt: now,
    };
    if (reading) meter.rateLimit(reading);
    const judged = judgeSent(job, sent, reading, {
      triages,
      gateWaiting: gate.isWaiting(now),
      tuning,
      now,
    });
    if (judged.note !== undefined) meter.note(judged.note);
    gate.settled(now, judged.reading, judged.retryAfterMs);
    const { verdict } = judged;
    if (verdict.stopRun) {
      unauthorized = true;
      return end();
    }
    if (verdict.pauseFor) {
      // Like the user's pause: nothing more is sent; the answers to requests in flight still
      // count. The refused job waits in the queue, first in line, as it was.
      for (const followUp of verdict.followUps) queue.add(followUp);
      if (!paused) {
        paused = true;
        wake.notify();
      }
      options.onAccessLost?.(verdict.pauseFor);
      return;
    }
    if (verdict.singleCompliance) queue.useSingleCompliance();
    for (const followUp of verdict.followUps) queue.add(followUp);
    // Checked and handed over in one step: a run that ended meanwhile writes nothing more.
    if (ending.signal.aborted) return;
    await deliver(assembly.complete(verdict.settled));
  }

  function launch(job: Job): void {
    gate.sent();
    const task: Promise<void> = runJob(job)
      .catch((error: unknown) => {
        saveFailure ??= { error };
        end();
      })
      .finally(() => {
        tasks.delete(task);
        wake.notify();
      });
    tasks.add(task);
  }

  /** One step of the dispatcher: send a job, or wait for whatever must happen first. */
  async function step(): Promise<"more" | "done"> {
    if (paused) {
      meter.setPhase("paused");
      await wake.wait();
      return "more";
    }
    if (tasks.size >= tuning.concurrency) {
      await wake.wait();
      return "more";
    }
    const now = tuning.now();
    const job = queue.take(now);
    if (!job) {
      if (queue.isEmpty) {
        if (tasks.size === 0) return "done";
        await wake.wait();
        return "more";
      }
      const next = queue.nextWaiting();
      const readyAt = next?.readyAt ?? now;
      if (tasks.size === 0) {
        const why = next?.isolated
          ? `to ask about ${next.registrations.map(formatRegistration).join(", ")} once more`
          : "before trying again";
        meter.waiting(readyAt, waitMessage(readyAt, now, why));
      }
      await sleepOrWake(tuning.sleep, readyAt - now, wake);
      return "more";
    }
    const decision = gate.check(now);
    if (!decision.open) {
      queue.putBack(job);
      if (decision.until === undefined) await wake.wait();
      else {
        meter.waiting(
          decision.until,
          waitMessage(decision.until, now, "for the rate limit"),
        );
        await sleepOrWake(tuning.sleep, decision.until - now, wake);
      }
      return "more";
    }
    meter.setPhase("running");
    launch(job);
    return "more";
  }

  async function start(): Promise<RunEnd> {
    if (started) throw new Error("A fleet run can be started once only.");
    started = true;
    meter.rebase();
    meter.setPhase(paused ? "paused" : "running");
    while (!ending.signal.aborted && !stopping && (await step()) === "more") {
      // step() waits whenever there is nothing to send, so this loop never spins.
    }
    if (stopping && !ending.signal.aborted && tasks.size > 0) {
      // Answers are given a moment (real time, like a request's timeout); a request the service
      // sits on does not hold the stop up.
      const grace = setTimeout(end, tuning.stopGraceMs);
      await Promise.all(tasks);
      clearTimeout(grace);
    }
    await Promise.all(tasks);
    if (saveFailure) throw saveFailure.error;
    if (unauthorized) {
      const results = assembly.giveUp(UNAUTHORIZED_REASON);
      for (let index = 0; index < results.length; index += tuning.chunkSize) {
        await deliver(results.slice(index, index + tuning.chunkSize));
      }
    }
    // A stop whose answers in flight were the last ones leaves nothing to check: finished.
    const status =
      cancelled && delivered < registrations.length ? "cancelled" : "finished";
    meter.finish(status);
    return { status };
  }

  return {
    start,
    pause() {
      if (paused || ending.signal.aborted) return;
      paused = true;
      wake.notify();
    },
    resume() {
      if (!paused) return;
      paused = false;
      meter.rebase();
      wake.notify();
    },
    cancel() {
      if (ending.signal.aborted || stopping) return;
      cancelled = true;
      stopping = true;
      wake.notify();
    },
    abandon() {
      if (ending.signal.aborted) return;
      cancelled = true;
      end();
    },
  };
}
