// What traces cost a signed-in check (issue 37, point 2; decision 069), as figures: the
// service and proxy's CPU per check with tracing off (as shipped) and on at 10% sampling, in
// pairs of fresh stacks each loaded in interleaved rounds (tracing.ts), and what the off path
// adds to a check over the code before tracing, measured in process. Pure, so the arithmetic is
// tested (tracing.test.ts).
import type { Figures } from "./figures.ts";
import { overRounds } from "./rounds.ts";

/** The two stacks of a pair, named as their figures are prefixed. */
export const TRACING_STACKS = ["tracing_off", "tracing_on10"] as const;
export type TracingStack = (typeof TRACING_STACKS)[number];

/** One pair's rounds: each stack's CPU µs per check, round by round. */
export type PairRounds = Record<TracingStack, readonly number[]>;

/** A stack's figure names: the proxy's and the service's CPU per check together. */
export const tracingCpuKeys = (stack: TracingStack) => ({
  cpu: `${stack}_cpu_us_per_check`,
  fastest: `${stack}_cpu_fastest_round_us`,
  slowest: `${stack}_cpu_slowest_round_us`,
});

export const TRACING_RATIO = "tracing_on10_off_cpu_ratio";
export const TRACING_RATIO_SPREAD = {
  lowest: `${TRACING_RATIO}_lowest_pair`,
  highest: `${TRACING_RATIO}_highest_pair`,
};
/** The ns of CPU the off path's calls take for one check, in process. */
export const TRACING_OFF_PATH = "tracing_off_path_ns_per_check";
/** The off check against the same check without those calls: "off over today's". */
export const TRACING_OFF_RATIO = "tracing_off_untraced_cpu_ratio";

/** The targets. */
export const TRACING_TARGETS = { onOverOff: 1.1, offOverUntraced: 1.02 };

export function tracingFigureKeys(): string[] {
  return [
    ...TRACING_STACKS.flatMap((stack) => Object.values(tracingCpuKeys(stack))),
    TRACING_RATIO,
    ...Object.values(TRACING_RATIO_SPREAD),
    TRACING_OFF_PATH,
    TRACING_OFF_RATIO,
  ];
}

const sum = (values: readonly number[]) =>
  values.reduce((total, value) => total + value, 0);

/**
 * The figures: each stack's median round over every pair (with its fastest and slowest), the
 * median of the pairs' own on/off ratios (each its rounds' CPU together, on over off) with the
 * lowest and highest, and the off check over the same check less the off path's calls.
 */
export function tracingFigures(
  pairs: readonly PairRounds[],
  offPathNs: number,
): Figures {
  const figures: Figures = {};
  for (const stack of TRACING_STACKS) {
    const keys = tracingCpuKeys(stack);
    const over = overRounds(pairs.flatMap((pair) => pair[stack]));
    figures[keys.cpu] = over.median;
    figures[keys.fastest] = over.fastest;
    figures[keys.slowest] = over.slowest;
  }
  const ratios = overRounds(
    pairs.map((pair) => sum(pair.tracing_on10) / sum(pair.tracing_off)),
  );
  figures[TRACING_RATIO] = ratios.median;
  figures[TRACING_RATIO_SPREAD.lowest] = ratios.fastest;
  figures[TRACING_RATIO_SPREAD.highest] = ratios.slowest;
  figures[TRACING_OFF_PATH] = offPathNs;
  const offUs = figures[tracingCpuKeys("tracing_off").cpu]!;
  figures[TRACING_OFF_RATIO] = offUs / (offUs - offPathNs / 1000);
  return figures;
}
