// What each server costs a check, beside the floors (bench/floors/): CPU µs per request from
// /proc, in interleaved rounds, and the ratios the targets are about. The ratios are
// taken round by round (a server and its floor measured minutes apart on the same machine) and
// the figure is the median round's ratio, with the lowest and highest round beside it. Pure, so
// the arithmetic is tested (costs.test.ts); cost-rounds.ts runs the load.
import type { Figures } from "./figures.ts";
import { overRounds } from "./rounds.ts";

/** The servers measured in each round, named as their figures are prefixed. */
export const CONTESTANTS = [
  "hello",
  "minimal_service",
  "service",
  "bff",
  "bff_sessions",
  "proxy_unsigned",
  "proxy",
  "nginx",
] as const;
export type Contestant = (typeof CONTESTANTS)[number];

/** What one round measured of one server. */
export interface RoundRun {
  cpuUs: number;
  rps: number;
  p50Ms: number;
  p99Ms: number;
}

export interface CostRatio {
  key: string;
  of: Contestant;
  to: Contestant;
  /** The target: the ratio must be at most this. */
  atMost?: number;
}

export const COST_RATIOS: readonly CostRatio[] = [
  {
    key: "service_minimal_cpu_ratio",
    of: "service",
    to: "minimal_service",
    atMost: 1.3,
  },
  { key: "proxy_bff_cpu_ratio", of: "proxy", to: "bff_sessions", atMost: 1.2 },
  { key: "proxy_nginx_cpu_ratio", of: "proxy", to: "nginx" },
  {
    key: "signed_in_unsigned_cpu_ratio",
    of: "proxy",
    to: "proxy_unsigned",
    atMost: 1.2,
  },
  // Information: what sessions cost the floor, and the proxy without them against the floor.
  { key: "bff_sessions_bff_cpu_ratio", of: "bff_sessions", to: "bff" },
  { key: "proxy_unsigned_bff_cpu_ratio", of: "proxy_unsigned", to: "bff" },
];

/** Each server's figure names. */
export const costKeys = (name: Contestant) => ({
  cpu: `${name}_cpu_us_per_req`,
  cpuFastest: `${name}_cpu_fastest_round_us`,
  cpuSlowest: `${name}_cpu_slowest_round_us`,
  rps: `${name}_rps`,
  p50: `${name}_p50_ms`,
  p99: `${name}_p99_ms`,
});

export const ratioSpreadKeys = (key: string) => ({
  lowest: `${key}_lowest_round`,
  highest: `${key}_highest_round`,
});

/** Every figure the rounds set, measured or not (for the recorder's notes on a failure). */
export function costFigureKeys(): string[] {
  return [
    ...CONTESTANTS.flatMap((name) => Object.values(costKeys(name))),
    ...COST_RATIOS.flatMap(({ key }) => [
      key,
      ...Object.values(ratioSpreadKeys(key)),
    ]),
  ];
}

/**
 * The figures of the rounds: per server the median round's CPU per request (with its fastest
 * and slowest round), requests/s and latencies; per ratio the median of the rounds' own ratios
 * and their range. A server without a round (not installed, failed) gives null figures, as do
 * the ratios it is part of.
 */
export function costFigures(
  rounds: Partial<Record<Contestant, readonly RoundRun[]>>,
): Figures {
  const figures: Figures = {};
  for (const name of CONTESTANTS) {
    const runs = rounds[name] ?? [];
    const keys = costKeys(name);
    const measured = runs.length > 0;
    const cpu = measured ? overRounds(runs.map((run) => run.cpuUs)) : null;
    figures[keys.cpu] = cpu?.median ?? null;
    figures[keys.cpuFastest] = cpu?.fastest ?? null;
    figures[keys.cpuSlowest] = cpu?.slowest ?? null;
    const median = (pick: (run: RoundRun) => number) =>
      measured ? overRounds(runs.map(pick)).median : null;
    figures[keys.rps] = median((run) => run.rps);
    figures[keys.p50] = median((run) => run.p50Ms);
    figures[keys.p99] = median((run) => run.p99Ms);
  }
  for (const { key, of, to } of COST_RATIOS) {
    const tops = rounds[of] ?? [];
    const bottoms = rounds[to] ?? [];
    const each = tops
      .slice(0, bottoms.length)
      .map((top, round) => top.cpuUs / bottoms[round]!.cpuUs)
      .filter(Number.isFinite);
    const spread = ratioSpreadKeys(key);
    const ratio = each.length > 0 ? overRounds(each) : null;
    figures[key] = ratio?.median ?? null;
    figures[spread.lowest] = ratio?.fastest ?? null;
    figures[spread.highest] = ratio?.slowest ?? null;
  }
  return figures;
}
