// The run's progress as the page shows it. Phase changes are reported at once; counts at most
// every progressIntervalMs, so that a fast run does not re-render the page for every chunk.
import type { RateLimitState } from "@vics/shared";
import type { RunPhase, RunProgress, VehicleResult } from "../results.ts";
import { isNotChecked } from "./result-assembly.ts";

export class ProgressMeter {
  private progress: RunProgress;
  /** The answers the rate is measured from: since the run, or its last resumption, started. */
  private baseline = { at: 0, done: 0 };
  private lastReportAt = -Infinity;
  private trailing: ReturnType<typeof setTimeout> | undefined;

  private readonly now: () => number;
  private readonly intervalMs: number;
  private readonly report: (progress: RunProgress) => void;

  constructor(
    total: number,
    now: () => number,
    intervalMs: number,
    report: (progress: RunProgress) => void,
  ) {
    this.now = now;
    this.intervalMs = intervalMs;
    this.report = report;
    this.progress = { phase: "running", total, done: 0, notChecked: 0 };
  }

  get phase(): RunPhase {
    return this.progress.phase;
  }

  /** Start measuring the rate afresh (at the start and on resume). */
  rebase(): void {
    this.baseline = { at: this.now(), done: this.progress.done };
  }

  setPhase(phase: Exclude<RunPhase, "waiting">): void {
    if (this.progress.phase === phase) return;
    this.progress = withoutWait({ ...this.progress, phase });
    this.flush();
  }

  waiting(until: number, message: string): void {
    const { phase, waitUntil } = this.progress;
    if (phase === "waiting" && waitUntil === until) return;
    this.progress = {
      ...this.progress,
      phase: "waiting",
      waitUntil: until,
      message,
    };
    this.flush();
  }

  /** What the run is doing while it runs, in words ("" for nothing to say); a wait says its own. */
  note(message: string): void {
    if (this.progress.phase === "waiting") return;
    const { message: _old, ...rest } = this.progress;
    this.progress = message ? { ...rest, message } : rest;
    this.flush();
  }

  rateLimit(state: RateLimitState): void {
    const { limit, remaining, resetSeconds } = state;
    this.progress = {
      ...this.progress,
      rateLimit: { limit, remaining, resetSeconds },
    };
    this.soon();
  }

  answered(results: readonly VehicleResult[]): void {
    const notChecked = results.filter(isNotChecked).length;
    this.progress = {
      ...this.progress,
      done: this.progress.done + results.length,
      notChecked: this.progress.notChecked + notChecked,
    };
    this.soon();
  }

  /** The last report, sent at once, with nothing pending after it. */
  finish(phase: "finished" | "cancelled"): void {
    this.progress = withoutWait({ ...this.progress, phase });
    this.flush();
  }

  // How often to report is about the page's rendering, so it goes by real time (Date.now),
  // not by the run's clock, which tests replace.
  private soon(): void {
    if (this.trailing !== undefined) return;
    const wait = this.lastReportAt + this.intervalMs - Date.now();
    if (wait <= 0) return this.flush();
    this.trailing = setTimeout(() => this.flush(), wait);
  }

  private flush(): void {
    clearTimeout(this.trailing);
    this.trailing = undefined;
    this.lastReportAt = Date.now();
    this.report({ ...this.progress, ...this.pace() });
  }

  private pace(): Pick<RunProgress, "ratePerSecond" | "secondsLeft"> {
    const seconds = (this.now() - this.baseline.at) / 1000;
    const answered = this.progress.done - this.baseline.done;
    if (seconds <= 0 || answered <= 0) return {};
    const ratePerSecond = answered / seconds;
    const left = this.progress.total - this.progress.done;
    return { ratePerSecond, secondsLeft: Math.ceil(left / ratePerSecond) };
  }
}

function withoutWait(progress: RunProgress): RunProgress {
  const { waitUntil: _until, message: _message, ...rest } = progress;
  return rest;
}
