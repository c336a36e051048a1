// What traces cost a signed-in check (issue 37, point 2; decision 069), as figures: the
// service and proxy's CPU per check with tracing off (as shipped) and on at 10% sampling, in
// interleaved rounds (tracing.ts), and what the off path adds to a check over the code before
// tracing, measured in process. Pure, so the arithmetic is tested (tracing.test.ts).
import type { Figures } from "./figures.ts";
import { overRounds } from "./rounds.ts";

/** The two stacks of the rounds, named as their figures are prefixed. */
export const TRACING_STACKS = ["tracing_off", "tracing_on10"] as const;
export type TracingStack = (typeof TRACING_STACKS)[number];

/** A stack's figure names: the proxy's and the service's CPU per check together. */
export const tracingCpuKeys = (stack: TracingStack) => ({
  cpu: `${stack}_cpu_us_per_check`,
  fastest: `${stack}_cpu_fastest_round_us`,
  slowest: `${stack}_cpu_slowest_round_us`,
});

export const TRACING_RATIO = "tracing_on10_off_cpu_ratio";
export const TRACING_RATIO_SPREAD = {
  lowest: `${TRACING_RATIO}_lowest_round`,
  highest: `${TRACING_RATIO}_highest_round`,
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

/**
 * The figures: each stack's median round (with its fastest and slowest), the median of the
 * rounds' own on/off ratios, and the off check over the same check less the off path's calls.
 * `rounds` holds each stack's CPU µs per check, round by round, in the same order.
 */
export function tracingFigures(
  rounds: Record<TracingStack, readonly number[]>,
  offPathNs: number,
): Figures {
  const figures: Figures = {};
  for (const stack of TRACING_STACKS) {
    const keys = tracingCpuKeys(stack);
    const over = overRounds(rounds[stack]);
    figures[keys.cpu] = over.median;
    figures[keys.fastest] = over.fastest;
    figures[keys.slowest] = over.slowest;
  }
  const ratios = overRounds(
    rounds.tracing_on10.map((on, round) => on / rounds.tracing_off[round]!),
  );
  figures[TRACING_RATIO] = ratios.median;
  figures[TRACING_RATIO_SPREAD.lowest] = ratios.fastest;
  figures[TRACING_RATIO_SPREAD.highest] = ratios.slowest;
  figures[TRACING_OFF_PATH] = offPathNs;
  const offUs = figures[tracingCpuKeys("tracing_off").cpu]!;
  figures[TRACING_OFF_RATIO] = offUs / (offUs - offPathNs / 1000);
  return figures;
}
