// What the traces the sampler keeps cost, measured in one pair of processes: the real proxy and
// service, both tracing at 10% (parentbased_traceidratio 0.1) to an OTLP sink in this process,
// one signed-in session, loaded through the proxy in interleaved rounds of three kinds of
// checks, the traceparent of each chosen by what the edge's sampler does with its trace id:
// - none kept: ids the sampler leaves out (tracing on, nothing recorded);
// - as sampled: random ids, as browsers send them, of which the sampler keeps one in ten;
// - all kept: ids the sampler keeps.
// The three kinds run on the same two processes, so the differences hold none of the luck that
// sets two processes of the same code apart (up to 15%, docs/performance.md "Fresh pairs of
// stacks"): as sampled over none kept is what the kept tenth costs; all kept over none kept,
// per check, is what one kept check costs each server. What tracing on but recording nothing
// costs over off is not here: that needs processes of both, `npm run bench -- --only tracing`.
// The rounds move a lot on a shared machine (one round's difference from the next can be larger
// than what is measured), so the figures are medians of each round's difference.
// Run: `scripts/node24 node bench/tracing-kept.ts [--rounds 9] [--requests 6000]`.
import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { parseArgs } from "node:util";
import { PLAN_LIMITS } from "@vics/shared";
import { TRACEPARENT_HEADER } from "@vics/server-kit/tracing";
import { loadScenario, type LoadOptions } from "./load.ts";
import { overRounds, roundOrder } from "./rounds.ts";
import { seedDatabase } from "./seed.ts";
import {
  FLEET_SIZE,
  otlpSink,
  traceparentOf,
  TRACED_SHARE,
  tracedEnv,
  tracedStack,
} from "./tracing.ts";

export const KINDS = ["none_kept", "as_sampled", "all_kept"] as const;
export type Kind = (typeof KINDS)[number];
type Role = "proxy" | "service";
/** Each kind's rounds: each role's CPU µs per check, round by round. */
export type KindRounds = Record<Kind, Record<Role, number[]>>;

/** The key's window (a fixed minute from its first request) and the share of it used. */
const KEY_WINDOW_MS = 61_000;
const KEY_BUDGET = Math.floor(PLAN_LIMITS.internal * 0.9);
/** Each kind's checks before the rounds. */
const WARM_UP = 20_000;

const median = (values: readonly number[]) => overRounds(values).median;

/** One role's figures, µs of CPU a check (keptCosts). */
export interface KeptCost {
  noneKeptUs: number;
  asSampledUs: number;
  allKeptUs: number;
  /** As sampled less none kept: what the kept tenth adds to a check. */
  keptTenthUs: number;
  /** None kept with the kept tenth added, over none kept. */
  keptTenthRatio: number;
  /** All kept less none kept: what one kept check adds. */
  oneKeptUs: number;
}

/**
 * Per role and for both together: each kind's median round, and the medians of the rounds'
 * differences from none kept (rounds of one index ran back to back).
 */
export function keptCosts(rounds: KindRounds): Record<Role | "both", KeptCost> {
  const cost = (of: (kind: Kind) => number[]): KeptCost => {
    const differences = (kind: Kind) =>
      of(kind).map((value, i) => value - of("none_kept")[i]!);
    const noneKeptUs = median(of("none_kept"));
    const keptTenthUs = median(differences("as_sampled"));
    return {
      noneKeptUs,
      asSampledUs: median(of("as_sampled")),
      allKeptUs: median(of("all_kept")),
      keptTenthUs,
      keptTenthRatio: (noneKeptUs + keptTenthUs) / noneKeptUs,
      oneKeptUs: median(differences("all_kept")),
    };
  };
  return {
    proxy: cost((kind) => rounds[kind].proxy),
    service: cost((kind) => rounds[kind].service),
    both: cost((kind) =>
      rounds[kind].proxy.map((proxy, i) => proxy + rounds[kind].service[i]!),
    ),
  };
}

/** A package of the servers', resolved from server-kit, whose dependency it is (not the root's). */
export const fromServerKit = createRequire(
  join(import.meta.dirname, "../server-kit/package.json"),
);

/** A sampler of the servers' SDK, as far as the bench asks it. */
export interface Sampler {
  shouldSample(
    context: unknown,
    traceId: string,
    ...rest: unknown[]
  ): { decision: number };
}

/** What the bench uses of the servers' SDK, typed here (the root package does not declare it). */
export const serverSdk = () =>
  fromServerKit("@opentelemetry/sdk-trace") as {
    TraceIdRatioBasedSampler: new (ratio: number) => Sampler;
    ParentBasedSampler: new (config: { root: Sampler }) => Sampler;
    SamplingDecision: { RECORD_AND_SAMPLED: number };
  };

/**
 * A trace id the sampler of the servers' own SDK keeps (`pick(true)`) or leaves out at TRACED_SHARE,
 * drawn at random until one is; and whether it keeps a given id.
 */
export function traceIdPicker() {
  const { TraceIdRatioBasedSampler, SamplingDecision } = serverSdk();
  const sampler = new TraceIdRatioBasedSampler(TRACED_SHARE);
  const keeps = (traceId: string) =>
    sampler.shouldSample({}, traceId).decision ===
    SamplingDecision.RECORD_AND_SAMPLED;
  const pick = (kept: boolean) => {
    for (;;) {
      const traceId = randomBytes(16).toString("hex");
      if (keeps(traceId) === kept) return traceId;
    }
  };
  return { pick, keeps };
}

/**
 * Waits, when `requests` more would pass `budget` in the key's window (a fixed `windowMs` from
 * the first request the window counts), for the window to end.
 */
export function keyWindow(
  budget = KEY_BUDGET,
  windowMs = KEY_WINDOW_MS,
  {
    now = Date.now,
    sleep = delay,
  }: { now?: () => number; sleep?: (ms: number) => Promise<unknown> } = {},
) {
  let opened = 0;
  let used = 0;
  return async (requests: number) => {
    if (requests > budget)
      throw new RangeError(
        `${requests} requests pass the key's ${budget} a window`,
      );
    if (used + requests > budget) {
      await sleep(Math.max(0, opened + windowMs - now()));
      used = 0;
    }
    if (used === 0) opened = now();
    used += requests;
  };
}

/** A whole number from `min` to `max`, or a clear error naming `option`. */
export function wholeNumber(
  option: string,
  value: string,
  min: number,
  max: number,
) {
  const number = Number(value);
  if (!Number.isInteger(number) || number < min || number > max)
    throw new RangeError(
      `--${option} takes a whole number from ${min} to ${max}, not "${value}"`,
    );
  return number;
}

async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "9" },
      requests: { type: "string", default: "6000" },
    },
  });
  const roundCount = wholeNumber("rounds", values.rounds, 1, 99);
  // At least 3,000: the warm-up second's share of a run of 1,000 (32 checks) is fewer than the
  // load's 64 connections, which the load refuses (load.ts).
  const requests = wholeNumber("requests", values.requests, 3_000, WARM_UP);
  const { pick, keeps } = traceIdPicker();
  // Checks sent with an id the sampler keeps, to weigh the spans the sink receives against.
  let keptChecks = 0;
  const traceId: Record<Kind, () => string> = {
    none_kept: () => pick(false),
    as_sampled: () => {
      const id = randomBytes(16).toString("hex");
      if (keeps(id)) keptChecks += 1;
      return id;
    },
    all_kept: () => {
      keptChecks += 1;
      return pick(true);
    },
  };
  const sink = await otlpSink();
  const dataDir = mkdtempSync(join(tmpdir(), "vics-tracing-kept-"));
  try {
    const rounds = await measured(
      dataDir,
      sink.url,
      roundCount,
      requests,
      traceId,
    );
    // The servers have stopped, sending the spans they held.
    if (sink.exports() === 0)
      throw new Error("the traced servers exported no spans");
    console.log(
      "\n| µs CPU a check | none kept | as sampled | all kept | the kept tenth adds | as a ratio | one kept check adds |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const [role, cost] of Object.entries(keptCosts(rounds)))
      console.log(
        `| ${role} | ${cost.noneKeptUs.toFixed(0)} | ${cost.asSampledUs.toFixed(0)} | ${cost.allKeptUs.toFixed(0)} | ${cost.keptTenthUs.toFixed(1)} | ${cost.keptTenthRatio.toFixed(3)} | ${cost.oneKeptUs.toFixed(0)} |`,
      );
    // A full batch queue drops spans unsent; a kept check then costs less than it should.
    console.log(
      `\nspans received a kept check: ${(sink.spans() / keptChecks).toFixed(2)} (${sink.spans().toLocaleString("en-GB")} spans, ${keptChecks.toLocaleString("en-GB")} kept checks sent, warm-ups and each run's unmeasured second included)`,
    );
  } finally {
    await sink.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A traced stack on a copy of a fleet seeded in `dataDir`, loaded kind by kind in interleaved
 * rounds, and stopped. */
async function measured(
  dataDir: string,
  sinkUrl: string,
  roundCount: number,
  requests: number,
  traceId: Record<Kind, () => string>,
): Promise<KindRounds> {
  console.log(`seeding a fleet of ${FLEET_SIZE.toLocaleString("en-GB")}...`);
  const fleetDir = mkdtempSync(join(dataDir, "fleet-"));
  seedDatabase(fleetDir, FLEET_SIZE);
  const stack = await tracedStack(
    mkdtempSync(join(dataDir, "stack-")),
    join(fleetDir, "vics.sqlite"),
    tracedEnv(sinkUrl),
  );
  try {
    const spend = keyWindow();
    const run = async (kind: Kind, maxRequests: number) => {
      await spend(maxRequests);
      const options: LoadOptions = {
        ...stack.options,
        perRequestHeaders: () => ({
          [TRACEPARENT_HEADER]: traceparentOf(traceId[kind]()),
        }),
      };
      return loadScenario(
        kind,
        options,
        { warmUpSeconds: 1, seconds: 30, maxRequests },
        stack.pids,
      );
    };
    console.log(
      `warming up (each kind, ${WARM_UP.toLocaleString("en-GB")} checks)...`,
    );
    for (const kind of KINDS) await run(kind, WARM_UP);
    const rounds = Object.fromEntries(
      KINDS.map((kind) => [kind, { proxy: [], service: [] }]),
    ) as unknown as KindRounds;
    for (let round = 0; round < roundCount; round++) {
      const line: string[] = [];
      // Each kind in each place in turn: reversed on odd rounds, rotated by a third.
      const order = roundOrder(KINDS, round);
      const rotated = [...order.slice(round % 3), ...order.slice(0, round % 3)];
      for (const kind of rotated) {
        const { cpuUsPerRequest } = await run(kind, requests);
        rounds[kind].proxy.push(cpuUsPerRequest.proxy!);
        rounds[kind].service.push(cpuUsPerRequest.service!);
        line.push(
          `${kind} proxy ${Math.round(cpuUsPerRequest.proxy!)} service ${Math.round(cpuUsPerRequest.service!)}`,
        );
      }
      console.log(`round ${round + 1}: ${line.join(" | ")}`);
    }
    return rounds;
  } finally {
    await stack.stop();
  }
}

if (import.meta.main) await main();
