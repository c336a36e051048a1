// `npm run bench` (`-- --only tracing`): what traces cost a signed-in check (decision 069).
// Pairs of stacks of the real service and proxy, one pair after another, each stack on its own
// copy of a small fleet: in each pair one with tracing off (no OTEL_* endpoint, as shipped), one
// exporting to an OTLP sink in this process at 10% sampling (parentbased_traceidratio 0.1).
// Fresh pairs, not more rounds of one: two processes of the same code and settings differ by
// up to 15% for as long as they run (30 November 2026: V8's compiled code, the heap's layout),
// so one pair's ratio is as much that luck as tracing; each new pair draws it again. A pair's
// two stacks are loaded with the same signed-in insurance checks, each with a traceparent of
// its own flagged not sampled, as the web app sends them, in interleaved rounds; a round's
// figure is a stack's two servers' CPU per check together, and a pair's ratio its rounds' on
// over off.
// The code before tracing cannot run beside them, so "off over today's" is the off check against
// itself less what the off path adds, those calls timed in process (a check runs them once
// each: the access logs' two span namings, the client call's traceparent read and check). Spans
// the sink never received would make the "on" figure meaningless: the section fails then.
import { randomBytes } from "node:crypto";
import { copyFileSync, mkdtempSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { CLIENT_HEADER, PLAN_LIMITS, PROXY_PREFIX, paths } from "@vics/shared";
import {
  nameServerSpan,
  startClientCall,
  TRACEPARENT_HEADER,
} from "@vics/server-kit/tracing";
import { fleetRegistrations } from "../scripts/load/fleet-sample.ts";
import { signedInCookie, startServers } from "../scripts/load/stack.ts";
import { costRoundsPlan } from "./forwarders.ts";
import {
  loadScenario,
  randomPick,
  type LoadOptions,
  type ScenarioPlan,
} from "./load.ts";
import type { Recorder } from "./recorder.ts";
import { roundOrder } from "./rounds.ts";
import { seedDatabase } from "./seed.ts";
import {
  type PairRounds,
  TRACING_STACKS,
  tracingFigureKeys,
  tracingFigures as figuresOf,
  type TracingStack,
} from "./tracing-figures.ts";

/** Each stack's fleet: enough vehicles that checks spread over many rows. */
export const FLEET_SIZE = 20_000;
const SAMPLE = 5_000;
/**
 * Pairs of stacks (off, on at 10%), each started, measured and stopped in turn: odd, so the
 * median is one pair's. A pair's ratio carries its two processes' luck (pairs of the same code
 * landed from 0.92 to 1.24 in one run), so seven pairs' median still moved by 0.03 from one run to
 * the next, across the target (1.075 and 1.105, 30 November 2026). Fifteen should cut that by
 * about a third (a median's error falls with the square root of the count), for about ten
 * minutes more; a quick run keeps seven.
 */
const tracingPairs = (quick: boolean) => (quick ? 7 : 15);
/** Interleaved rounds of each pair, the order swapped in the second. */
const ROUNDS_PER_PAIR = 2;
/**
 * Each stack's unmeasured load first, longer than the cost rounds' (cost-rounds.ts): a traced
 * process runs its recording code on one request in ten, so V8 takes longer to compile it (one
 * run with 20,000 gave 1.14, the next with 60,000 gave 1.10, 30 November 2026: too few to say
 * the warm-up alone made that difference; the longer one costs only time).
 */
const WARM_UP = { requests: 60_000, seconds: 30 };
/**
 * Each stack's key is its own (a fresh service): its warm-up and its rounds together stay under
 * 90% of a key's 100,000 requests a minute, so no round meets a 429.
 */
const ROUND_MAX_REQUESTS = Math.floor(
  (PLAN_LIMITS.internal * 0.9 - WARM_UP.requests) / ROUNDS_PER_PAIR,
);
/** The share of checks the traced stacks keep. */
export const TRACED_SHARE = 0.1;
/** A traceparent flagged not sampled, as the web app sends one: `traceId`, a new parent id. */
export const traceparentOf = (traceId: string) =>
  `00-${traceId}-${randomBytes(8).toString("hex")}-00`;
/** A traceparent as the web app sends one with each request: its own ids, not sampled. */
const webTraceparent = () => traceparentOf(randomBytes(16).toString("hex"));
const NO_ENDPOINT = {
  OTEL_EXPORTER_OTLP_ENDPOINT: "",
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "",
};
/** Both servers' environment for tracing at TRACED_SHARE to the sink at `tracesUrl`. */
export const tracedEnv = (tracesUrl: string) => ({
  ...NO_ENDPOINT,
  OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: tracesUrl,
  OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
  OTEL_TRACES_SAMPLER_ARG: String(TRACED_SHARE),
});

/**
 * An OTLP/http receiver that reads and drops every export, counting the exports and the spans in
 * them (each span of OTLP's JSON has one "spanId" field; its parent's is "parentSpanId").
 */
export async function otlpSink() {
  let exports = 0;
  let spans = 0;
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on("data", (chunk: Buffer) => chunks.push(chunk));
    request.on("end", () => {
      exports += 1;
      spans += occurrences(Buffer.concat(chunks), SPAN_ID_FIELD);
      response.writeHead(200, { "Content-Type": "application/json" });
      response.end("{}");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1/traces`,
    exports: () => exports,
    spans: () => spans,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}

const SPAN_ID_FIELD = Buffer.from('"spanId"');

function occurrences(body: Buffer, field: Buffer): number {
  let count = 0;
  for (
    let at = body.indexOf(field);
    at !== -1;
    at = body.indexOf(field, at + field.length)
  )
    count += 1;
  return count;
}

/**
 * The ns of CPU the off path's added calls take for one check, over `checks` checks in this
 * process, where no SDK is registered either.
 */
export function offPathNs(checks = 1_000_000): number {
  const request = new Request(
    "http://127.0.0.1/api/v1/vehicle/AB12CDE/insurance",
    {
      headers: {
        accept: "application/json",
        cookie: "vics_session=x",
        [CLIENT_HEADER]: "web",
        [TRACEPARENT_HEADER]: webTraceparent(),
      },
    },
  );
  const started = process.cpuUsage();
  for (let check = 0; check < checks; check++) {
    nameServerSpan("GET", "/api/v1/vehicle/:registration/insurance");
    const call = startClientCall(
      "GET",
      "http://127.0.0.1:3001",
      "/v1/vehicle/:registration/insurance",
      request,
    );
    call.end(200);
    nameServerSpan("GET", "/v1/vehicle/:registration/insurance");
  }
  const used = process.cpuUsage(started);
  return ((used.user + used.system) * 1000) / checks;
}

/**
 * One stack in `dataDir` on a copy of `fleet` (a seeded database), signed in; `env` added to both
 * servers.
 */
export async function tracedStack(
  dataDir: string,
  fleet: string,
  env: Record<string, string>,
) {
  copyFileSync(fleet, join(dataDir, "vics.sqlite"));
  const servers = await startServers({
    dataDir,
    serviceEnv: env,
    proxyEnv: env,
  });
  const stop = async () => {
    try {
      await servers.proxy.stop();
    } finally {
      await servers.service.stop();
    }
  };
  try {
    const cookie = await signedInCookie(
      `${servers.proxy.url}/`,
      servers.proxyDatabasePath,
    );
    const pick = randomPick(fleetRegistrations(dataDir, SAMPLE));
    const options: LoadOptions = {
      url: servers.proxy.url,
      headers: { [CLIENT_HEADER]: "bench", Cookie: cookie },
      path: () => PROXY_PREFIX + paths.insurance(pick()),
      perRequestHeaders: () => ({ [TRACEPARENT_HEADER]: webTraceparent() }),
    };
    const pids = {
      proxy: servers.proxy.process.pid,
      service: servers.service.process.pid,
    };
    return { options, pids, stop };
  } catch (error) {
    await stop();
    throw error;
  }
}

export async function tracingSection(
  context: { dataDir: string; quick: boolean },
  recorder: Recorder,
): Promise<void> {
  const { dataDir, quick } = context;
  const { figures, say } = recorder;
  const { timing } = costRoundsPlan(quick);
  const pairCount = tracingPairs(quick);
  await recorder.scenario(
    tracingFigureKeys(),
    async () => {
      const sink = await otlpSink();
      const envs: Record<TracingStack, Record<string, string>> = {
        tracing_off: NO_ENDPOINT,
        tracing_on10: tracedEnv(sink.url),
      };
      try {
        say(
          `- seeding a fleet of ${FLEET_SIZE.toLocaleString("en-GB")}, copied for each stack...`,
        );
        const fleetDir = mkdtempSync(join(dataDir, "tracing-fleet-"));
        seedDatabase(fleetDir, FLEET_SIZE);
        const fleet = join(fleetDir, "vics.sqlite");
        const pairs: PairRounds[] = [];
        for (let pair = 0; pair < pairCount; pair++)
          pairs.push(
            await measuredPair(
              (name) =>
                tracedStack(
                  mkdtempSync(join(dataDir, `${name}-${pair}-`)),
                  fleet,
                  envs[name],
                ),
              {
                plan: { ...timing, maxRequests: ROUND_MAX_REQUESTS },
                warmUp: WARM_UP,
                first: pair,
                say: (line) => say(`    pair ${pair + 1}, ${line}`),
              },
            ),
          );
        if (sink.exports() === 0)
          throw new Error("the traced stacks exported no spans");
        Object.assign(figures, figuresOf(pairs, offPathNs()));
      } finally {
        await sink.close();
      }
    },
    `what traces cost a signed-in check: off, and on at 10% sampling, ${pairCount} pairs of fresh stacks, ${ROUNDS_PER_PAIR} interleaved rounds each`,
  );
}

type TracedStack = Awaited<ReturnType<typeof tracedStack>>;

/** How a pair is loaded; `first` is which pair it is, which sets the stacks' order. */
interface PairOptions {
  plan: ScenarioPlan;
  warmUp: { requests: number; seconds: number };
  first: number;
  say: (line: string) => void;
}

/**
 * One pair: both stacks started (`started`), warmed up, loaded in interleaved rounds, and
 * stopped (a stop sends the spans still held); each stack's CPU per check, round by round.
 * `first`: which pair this is, which sets the order the two stacks start in and take turns.
 */
async function measuredPair(
  started: (name: TracingStack) => Promise<TracedStack>,
  options: PairOptions,
): Promise<PairRounds> {
  const stacks: Partial<Record<TracingStack, TracedStack>> = {};
  // Every stack is stopped, whichever stop fails.
  const stopAll = () =>
    Promise.allSettled(Object.values(stacks).map((stack) => stack.stop()));
  let cpu: PairRounds;
  try {
    for (const name of roundOrder(TRACING_STACKS, options.first))
      stacks[name] = await started(name);
    cpu = await pairRounds(
      stacks as Record<TracingStack, TracedStack>,
      options,
    );
  } catch (error) {
    await stopAll();
    throw error;
  }
  // After the rounds, a stop that fails fails the pair (a stop's unsent spans do not: the
  // servers log them and exit 0; the section checks the sink received spans at all).
  const failed = (await stopAll()).find(
    (outcome) => outcome.status === "rejected",
  );
  if (failed) throw failed.reason;
  return cpu;
}

/** A started pair warmed up, then loaded in interleaved rounds. */
async function pairRounds(
  stacks: Record<TracingStack, TracedStack>,
  options: PairOptions,
): Promise<PairRounds> {
  const { plan, warmUp, first, say } = options;
  for (const name of roundOrder(TRACING_STACKS, first))
    await loadScenario(`${name} (warm-up)`, stacks[name].options, {
      warmUpSeconds: 1,
      seconds: Math.max(1, warmUp.seconds - 1),
      maxRequests: warmUp.requests,
    });
  const cpu: Record<TracingStack, number[]> = {
    tracing_off: [],
    tracing_on10: [],
  };
  for (let round = 0; round < ROUNDS_PER_PAIR; round++)
    for (const name of roundOrder(TRACING_STACKS, first + round)) {
      const stack = stacks[name];
      const run = await loadScenario(name, stack.options, plan, stack.pids);
      const { proxy, service } = run.cpuUsPerRequest;
      if (proxy === undefined || service === undefined)
        throw new Error(`${name}: /proc gave no CPU time`);
      cpu[name].push(proxy + service);
      say(
        `round ${round + 1}, ${name}: ${Math.round(run.rps)} req/s; CPU µs/check: proxy ${Math.round(proxy)}, service ${Math.round(service)}`,
      );
    }
  return cpu;
}
