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
// Run: `scripts/node24 node bench/tracing-kept.ts [--rounds 6] [--requests 6000]`.
import { randomBytes } from "node:crypto";
import { mkdtempSync } from "node:fs";
import { createRequire } from "node:module";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { setTimeout as delay } from "node:timers/promises";
import { parseArgs } from "node:util";
import { CLIENT_HEADER, PLAN_LIMITS, PROXY_PREFIX, paths } from "@vics/shared";
import { TRACEPARENT_HEADER } from "@vics/server-kit/tracing";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { signedInCookie, startServers } from "../scripts/load/stack.ts";
import { loadScenario, randomPick, type LoadOptions } from "./load.ts";
import { percentile } from "./percentile.ts";
import { roundOrder } from "./rounds.ts";
import { seedDatabase } from "./seed.ts";

export const KINDS = ["none_kept", "as_sampled", "all_kept"] as const;
export type Kind = (typeof KINDS)[number];
type Role = "proxy" | "service";
/** Each kind's rounds: each role's CPU µs per check, round by round. */
export type KindRounds = Record<Kind, Record<Role, number[]>>;

const RATIO = 0.1;
const FLEET_SIZE = 20_000;
/** The key's window (a fixed minute from its first request) and the share of it used. */
const KEY_WINDOW_MS = 61_000;
const KEY_BUDGET = Math.floor(PLAN_LIMITS.internal * 0.9);

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    50,
  );

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

/**
 * A trace id the sampler of the servers' own SDK keeps (`kept`) or leaves out at RATIO: drawn
 * at random until one is.
 */
async function traceIdPicker() {
  // The servers' SDK, resolved from server-kit, whose dependency it is.
  const { TraceIdRatioBasedSampler, SamplingDecision } = createRequire(
    join(import.meta.dirname, "../server-kit/package.json"),
  )("@opentelemetry/sdk-trace") as typeof import("@opentelemetry/sdk-trace");
  const sampler = new TraceIdRatioBasedSampler(RATIO);
  const keeps = (traceId: string) =>
    sampler.shouldSample({} as never, traceId).decision ===
    SamplingDecision.RECORD_AND_SAMPLED;
  return (kept: boolean) => {
    for (;;) {
      const traceId = randomBytes(16).toString("hex");
      if (keeps(traceId) === kept) return traceId;
    }
  };
}

async function otlpSink() {
  const server = createServer((request, response) => {
    request.resume();
    request.on("end", () => {
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

/** Waits, when `requests` more would pass the key's budget, for its window to end. */
function keyWindow() {
  let opened = 0;
  let used = 0;
  return async (requests: number) => {
    if (used + requests > KEY_BUDGET) {
      await delay(Math.max(0, opened + KEY_WINDOW_MS - Date.now()));
      used = 0;
    }
    if (used === 0) opened = Date.now();
    used += requests;
  };
}

async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "6" },
      requests: { type: "string", default: "6000" },
    },
  });
  const roundCount = Number(values.rounds);
  const requests = Number(values.requests);
  const pick = await traceIdPicker();
  const traceId: Record<Kind, () => string> = {
    none_kept: () => pick(false),
    as_sampled: () => randomBytes(16).toString("hex"),
    all_kept: () => pick(true),
  };
  const sink = await otlpSink();
  const dataDir = mkdtempSync(join(tmpdir(), "vics-tracing-kept-"));
  console.log(`seeding a fleet of ${FLEET_SIZE.toLocaleString("en-GB")}...`);
  seedDatabase(dataDir, FLEET_SIZE);
  const env = {
    OTEL_EXPORTER_OTLP_ENDPOINT: "",
    OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: sink.url,
    OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
    OTEL_TRACES_SAMPLER_ARG: String(RATIO),
  };
  const servers = await startServers({
    dataDir,
    serviceEnv: env,
    proxyEnv: env,
  });
  try {
    const cookie = await signedInCookie(
      `${servers.proxy.url}/`,
      servers.proxyDatabasePath,
    );
    const registration = randomPick(fleetRegistrations(dataDir, 5_000));
    const pids = {
      proxy: servers.proxy.process.pid,
      service: servers.service.process.pid,
    };
    const spend = keyWindow();
    const run = async (kind: Kind, maxRequests: number) => {
      await spend(maxRequests);
      const options: LoadOptions = {
        url: servers.proxy.url,
        headers: { [CLIENT_HEADER]: "bench", Cookie: cookie },
        path: () => PROXY_PREFIX + paths.insurance(registration()),
        perRequestHeaders: () => ({
          [TRACEPARENT_HEADER]: `00-${traceId[kind]()}-${randomBytes(8).toString("hex")}-00`,
        }),
      };
      return loadScenario(
        kind,
        options,
        { warmUpSeconds: 1, seconds: 30, maxRequests },
        pids,
      );
    };
    console.log("warming up (each kind, 20,000 checks)...");
    for (const kind of KINDS) await run(kind, 20_000);
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
    const costs = keptCosts(rounds);
    console.log(
      "\n| µs CPU a check | none kept | as sampled | all kept | the kept tenth adds | as a ratio | one kept check adds |",
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- |");
    for (const [role, cost] of Object.entries(costs))
      console.log(
        `| ${role} | ${cost.noneKeptUs.toFixed(0)} | ${cost.asSampledUs.toFixed(0)} | ${cost.allKeptUs.toFixed(0)} | ${cost.keptTenthUs.toFixed(1)} | ${cost.keptTenthRatio.toFixed(3)} | ${cost.oneKeptUs.toFixed(0)} |`,
      );
  } finally {
    await servers.proxy.stop();
    await servers.service.stop();
    await sink.close();
  }
}

if (import.meta.main) await main();
