// `npm run bench -- --only checks`: the proxy's CPU per signed-in check, in a few minutes
// instead of the whole bench's hour. The same forwarders as the whole bench (forwarders.ts:
// the careful BFF with sessions, the proxy without sign-in's costs, the proxy) in the same
// interleaved rounds (cost-rounds.ts), in front of the real service on a small fleet of its
// own seeding; then the in-process split of sign-in's part (signed-in-check.ts). The service's
// database size does not enter these figures: each is the CPU of the forwarder's own process.
import { join } from "node:path";
import { PROXY_PREFIX, paths } from "@vics/shared";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { startStack } from "../scripts/load/stack.ts";
import { costRounds } from "./cost-rounds.ts";
import {
  COST_RATIOS,
  costFigures,
  costKeys,
  ratioSpreadKeys,
  type Contestant,
} from "./costs.ts";
import {
  costRoundsPlan,
  signedInForwarders,
  startedServers,
} from "./forwarders.ts";
import { randomPick } from "./load.ts";
import type { Recorder } from "./recorder.ts";
import { seedDatabase } from "./seed.ts";
import { createKey } from "./servers.ts";
import { SIGNED_IN_KEYS, signedInScenario } from "./signed-in-check.ts";

/** Enough vehicles that checks spread over many rows; seeded in about a second. */
export const CHECKS_FLEET_SIZE = 20_000;
/** The fleet's registrations each check draws one from at random. */
export const CHECKS_SAMPLE = 5_000;
const MEASURED: readonly Contestant[] = [
  "bff_sessions",
  "proxy_unsigned",
  "proxy",
];

/** The ratios whose two servers are both measured here: the two targets. */
const checkRatios = () =>
  COST_RATIOS.filter(
    ({ of, to }) => MEASURED.includes(of) && MEASURED.includes(to),
  );

/** The figures the interleaved rounds set: the forwarders' own and their ratios. */
function roundKeys(): string[] {
  return [
    ...MEASURED.flatMap((name) => Object.values(costKeys(name))),
    ...checkRatios().flatMap(({ key }) => [
      key,
      ...Object.values(ratioSpreadKeys(key)),
    ]),
  ];
}

/** The figures this section sets, and so the rows it prints and the results it writes. */
export function checkFigureKeys(): string[] {
  return [...roundKeys(), ...SIGNED_IN_KEYS];
}

export async function checkFigures(
  context: { dataDir: string; quick: boolean },
  recorder: Recorder,
): Promise<void> {
  const { dataDir, quick } = context;
  const { figures, say } = recorder;
  say(`- seeding ${CHECKS_FLEET_SIZE.toLocaleString("en-GB")} vehicles...`);
  seedDatabase(dataDir, CHECKS_FLEET_SIZE);
  const stack = await startStack({ dataDir, plan: "internal" });
  try {
    const sample = fleetRegistrations(dataDir, CHECKS_SAMPLE);
    const pick = randomPick(sample);
    // The whole bench's rounds, warm-up and key budget (forwarders.ts).
    const { rounds, keyed, warmUp } = costRoundsPlan(quick);
    const measuredKeys = roundKeys();
    await recorder.scenario(
      measuredKeys,
      async () => {
        const { start, stopAll } = startedServers();
        try {
          const servers = await signedInForwarders({
            stack,
            dataDir,
            key: (name) => createKey(join(dataDir, "vics.sqlite"), name),
            proxied: () => PROXY_PREFIX + paths.insurance(pick()),
            plan: keyed,
            start,
          });
          const runs = await costRounds(servers, rounds, say, warmUp);
          const all = costFigures(runs);
          for (const key of measuredKeys) figures[key] = all[key] ?? null;
        } finally {
          await stopAll();
        }
      },
      `the signed-in check beside its floor and the proxy without sign-in, ${rounds} interleaved rounds`,
    );
    await signedInScenario(dataDir, sample, recorder);
  } finally {
    await stack.stop();
  }
}

/**
 * Whether a figure or a table row belongs to this section: one of its figures, or a ratio row
 * ("a / b", report.ts) of two of them.
 */
export function inChecksSection(figure: string): boolean {
  const keys = new Set(checkFigureKeys());
  return figure.split(" / ").every((key) => keys.has(key));
}
