/**
 * `@vics/shared/testing/fuzz`: the one place every workspace's property tests take their size
 * from, and where each property records what it tried. Test-only: no app imports it, so it
 * may read process.env (docs/architecture.md keeps that to env modules in the apps).
 *
 * - FUZZ_RUNS: cases per property; 1,000 in the normal test run, `npm run fuzz` sets 100,000.
 * - FUZZ_TIME_LIMIT_MS: optional budget per property; past it the property stops with the
 *   cases it has run (a pass, and the report says it was cut short).
 * - FUZZ_SEED: replays a run (every report names its seed).
 * - FUZZ_REPORT_DIR: each property writes its report there, for scripts/fuzz.ts to print.
 */
import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { startHangGuard } from "./hang-guard.ts";

export * from "./fuzz-http.ts";
export * from "./fuzz-inputs.ts";

const DEFAULT_RUNS = 1_000;

function positiveInteger(value: string | undefined): number | undefined {
  if (value === undefined || value === "") return undefined;
  const number = Number(value);
  if (!Number.isSafeInteger(number) || number <= 0)
    throw new Error(`Expected a positive whole number, got "${value}"`);
  return number;
}

/** Cases per property. */
export const FUZZ_RUNS = positiveInteger(process.env.FUZZ_RUNS) ?? DEFAULT_RUNS;
const TIME_LIMIT_MS = positiveInteger(process.env.FUZZ_TIME_LIMIT_MS);
const SEED = process.env.FUZZ_SEED ? Number(process.env.FUZZ_SEED) : undefined;
const REPORT_DIR = process.env.FUZZ_REPORT_DIR || undefined;

/** Per case: past this a case has hung, and the property fails. Far above any real case. */
const CASE_TIMEOUT_MS = 10_000;

/**
 * A vitest timeout for a test running one property: the whole budget, or a generous
 * allowance per case, plus the time a failing property takes to shrink.
 */
export const FUZZ_TEST_TIMEOUT_MS =
  (TIME_LIMIT_MS ?? FUZZ_RUNS * 100) + 5 * 60_000;

export interface FuzzOptions<T> {
  /** Inputs tried first, on every run: the deterministic cases (a 10 MB body, a zip bomb). */
  examples?: T[];
  /** How an input shows in the report; default fast-check's own printing. */
  describe?: (input: T) => string;
}

export interface FuzzReport {
  property: string;
  requestedRuns: number;
  /** Cases that ran and held (all of them, unless interrupted or failed). */
  cases: number;
  /** Stopped by FUZZ_TIME_LIMIT_MS before `requestedRuns`. */
  interrupted: boolean;
  timeLimitMs: number | null;
  seed: number;
  durationMs: number;
  /** What the answers were, e.g. "400 MALFORMED_REQUEST": count. */
  outcomes: Record<string, number>;
  /** The first input that met each outcome, shortened. */
  samples: Array<{ outcome: string; input: string }>;
  failure: string | null;
}

const SAMPLE_CHARS = 120;
const MAX_SAMPLES = 12;

export function shorten(text: string, length = SAMPLE_CHARS): string {
  const flat = text.replace(/[\r\n]+/g, "\u23ce");
  return flat.length <= length
    ? flat
    : `${flat.slice(0, length - 20)}… (${flat.length.toLocaleString("en-GB")} chars)`;
}

function fileNameFor(property: string): string {
  return `${property.replace(/[^A-Za-z0-9]+/g, "-").replace(/^-|-$/g, "")}.json`;
}

function writeReport(report: FuzzReport): void {
  if (!REPORT_DIR) return;
  mkdirSync(REPORT_DIR, { recursive: true });
  writeFileSync(
    join(REPORT_DIR, fileNameFor(report.property)),
    JSON.stringify(report, null, 2),
  );
}

/**
 * Runs `examine` over FUZZ_RUNS inputs from `arbitrary`. `examine` asserts what must hold
 * (it throws, e.g. with expect, when it does not) and returns the outcome it saw, which the
 * report counts. A case that takes longer than the per-case timeout fails the property: an
 * await that never settles through fast-check's timeout, a thread stuck in a loop through
 * the hang guard, which ends the test process with the case's input. Throws with
 * fast-check's report (seed, path, counterexample) when a case fails; otherwise returns
 * what it tried.
 */
export async function fuzz<T>(
  property: string,
  arbitrary: fc.Arbitrary<T>,
  examine: (input: NoInfer<T>) => string | Promise<string>,
  options: FuzzOptions<NoInfer<T>> = {},
): Promise<FuzzReport> {
  const seed = SEED ?? (Date.now() ^ (Math.random() * 0x7fffffff)) | 0;
  const describe = options.describe ?? ((input: T) => fc.stringify(input));
  const outcomes = new Map<string, number>();
  const samples: FuzzReport["samples"] = [];
  let cases = 0;
  let failing = false;
  const guard = startHangGuard({
    property,
    seed,
    limitMs: CASE_TIMEOUT_MS * 2,
    reportFile: REPORT_DIR && join(REPORT_DIR, fileNameFor(property)),
  });

  const started = performance.now();
  const details = await fc
    .check(
      fc.asyncProperty(arbitrary, async (input) => {
        guard.caseStarted(() => shorten(describe(input), 2_000));
        try {
          const outcome = await examine(input);
          // Shrinking replays smaller inputs after a failure: those are not counted.
          if (failing) return;
          cases++;
          outcomes.set(outcome, (outcomes.get(outcome) ?? 0) + 1);
          if (
            samples.length < MAX_SAMPLES &&
            !samples.some((sample) => sample.outcome === outcome)
          )
            samples.push({ outcome, input: shorten(describe(input)) });
        } catch (error) {
          failing = true;
          throw error;
        } finally {
          guard.caseFinished();
        }
      }),
      {
        numRuns: FUZZ_RUNS,
        seed,
        examples: options.examples?.map((example) => [example]),
        plugins: [
          fc.timeout(CASE_TIMEOUT_MS),
          ...(TIME_LIMIT_MS ? [fc.interruptAfterTimeLimit(TIME_LIMIT_MS)] : []),
        ],
      },
    )
    .finally(() => guard.stop());

  const report: FuzzReport = {
    property,
    requestedRuns: FUZZ_RUNS,
    cases,
    interrupted: details.interrupted,
    timeLimitMs: TIME_LIMIT_MS ?? null,
    seed: details.seed,
    durationMs: Math.round(performance.now() - started),
    outcomes: Object.fromEntries([...outcomes].sort(([, a], [, b]) => b - a)),
    samples,
    failure: details.failed
      ? shorten(fc.defaultReportMessage(details), 4_000)
      : null,
  };
  writeReport(report);
  if (details.failed)
    throw new Error(
      `${property}: ${fc.defaultReportMessage(details)}\nReplay with FUZZ_SEED=${details.seed}`,
    );
  if (!details.interrupted && cases < FUZZ_RUNS)
    throw new Error(`${property}: ran ${cases} of ${FUZZ_RUNS} cases`);
  return report;
}
