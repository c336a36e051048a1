// What one kept request costs by how often requests are kept, measured where nothing else
// moves: fresh processes of bench/tracing-mixing-worker.ts (synthetic work in one process, no
// HTTP, no database), each at one share kept (0, 1%, 10%, 30%, all by default), in interleaved
// rounds, the spans sent to an OTLP sink in this process. The median of a share's rounds'
// differences from none kept, over the share kept, is what one kept request adds there; a cost
// that is each span's work alone would be the same at every share. Each difference is split too:
// the main thread's CPU, the other threads' (V8's helpers: garbage collection, compilers), and
// the main thread's garbage-collection pauses. `--path context` runs the
// same with no tracing: a kept request only runs in an AsyncLocalStorage context of its own.
// Run: `scripts/node24 node bench/tracing-mixing.ts [--rounds 7] [--requests 60000]
// [--shares 0,0.01,0.1,0.3,1] [--path sdk|context]` (about eight minutes as it stands).
import { execFile } from "node:child_process";
import { join } from "node:path";
import { parseArgs, promisify } from "node:util";
import { overRounds, roundOrder } from "./rounds.ts";
import { otlpSink } from "./tracing.ts";
import { wholeNumber } from "./tracing-kept.ts";
import {
  PATHS,
  SPANS_A_KEPT_REQUEST,
  type KeptPath,
  type WorkerFigure,
} from "./tracing-mixing-worker.ts";

/** The shares kept that a run compares, the first 0 (tracing on, nothing kept): its default. */
export const DEFAULT_SHARES = [0, 0.01, 0.1, 0.3, 1];

/** One share's rounds, in order: the worker's figures. */
export interface ShareRounds {
  share: number;
  figures: WorkerFigure[];
}

/** What a share kept costs, against none kept. */
export interface KeptCost {
  share: number;
  /** The median round, µs of CPU a request. */
  medianUs: number;
  /** This share less none kept: the median of the rounds' differences, µs a request. */
  addsUs: number;
  /** The same, of the main thread's CPU alone. */
  addsMainUs: number;
  /** The same, of the other threads' (V8's helpers: garbage collection, compilers). */
  addsOtherUs: number;
  /** The same, of the main thread's garbage-collection pauses. */
  addsGcPauseUs: number;
  /** The share the rounds actually kept (their median): a draw, near `share`. */
  keptShare: number;
  /** addsUs over keptShare: µs one kept request adds, at this share. */
  perKeptUs: number;
  /** perKeptUs over what one kept request adds when every one is kept, when a run has that. */
  overAllKept: number | undefined;
}

const median = (values: readonly number[]) => overRounds(values).median;

/**
 * Each share's cost against the first, none kept; rounds of one index ran back to back, so each
 * round's difference holds none of the drift between rounds.
 */
export function keptCosts(rounds: readonly ShareRounds[]): KeptCost[] {
  const [none, ...kept] = rounds;
  if (none?.share !== 0) throw new Error("the first share must be 0");
  const us = (of: ShareRounds) => of.figures.map((f) => f.cpuUsPerRequest);
  // Each round's difference from none kept, then their median.
  const adds = (of: ShareRounds, part: (f: WorkerFigure) => number) =>
    median(of.figures.map((f, i) => part(f) - part(none.figures[i]!)));
  const costs = kept.map((of) => {
    const addsUs = adds(of, (f) => f.cpuUsPerRequest);
    const keptShare = median(of.figures.map((f) => f.keptShare));
    return {
      share: of.share,
      medianUs: median(us(of)),
      addsUs,
      addsMainUs: adds(of, (f) => f.mainThreadUsPerRequest),
      addsOtherUs: adds(
        of,
        (f) => f.cpuUsPerRequest - f.mainThreadUsPerRequest,
      ),
      addsGcPauseUs: adds(of, (f) => f.gcPauseUsPerRequest),
      keptShare,
      perKeptUs: addsUs / keptShare,
    };
  });
  const allKept = costs.find((cost) => cost.share === 1)?.perKeptUs;
  return [
    {
      share: 0,
      medianUs: median(us(none)),
      addsUs: 0,
      addsMainUs: 0,
      addsOtherUs: 0,
      addsGcPauseUs: 0,
      keptShare: 0,
      perKeptUs: Number.NaN,
      overAllKept: undefined,
    },
    ...costs.map((cost) => ({
      ...cost,
      overAllKept: allKept === undefined ? undefined : cost.perKeptUs / allKept,
    })),
  ];
}

/** `--shares`: shares from 0 to 1, the first 0, no two alike; or a clear error. */
export function parseShares(value: string): number[] {
  const shares = value.split(",").map((part) => Number(part.trim()));
  if (
    shares.length < 2 ||
    shares[0] !== 0 ||
    shares.some((share) => !(share >= 0 && share <= 1)) ||
    new Set(shares).size !== shares.length
  )
    throw new RangeError(
      `--shares takes two or more shares from 0 to 1, the first 0, no two alike, not "${value}"`,
    );
  return shares;
}

const run = promisify(execFile);

/** One fresh worker process at `share`: its figure. */
export async function workerFigure(
  share: number,
  sinkUrl: string,
  requests: number,
  path: KeptPath,
): Promise<WorkerFigure> {
  const { stdout } = await run(process.execPath, [
    join(import.meta.dirname, "tracing-mixing-worker.ts"),
    String(share),
    sinkUrl,
    String(requests),
    path,
  ]);
  return JSON.parse(stdout.trim().split("\n").at(-1)!) as WorkerFigure;
}

async function main() {
  const { values } = parseArgs({
    options: {
      rounds: { type: "string", default: "7" },
      requests: { type: "string", default: "60000" },
      path: { type: "string", default: "sdk" },
      shares: { type: "string", default: DEFAULT_SHARES.join(",") },
    },
  });
  const roundCount = wholeNumber("rounds", values.rounds, 1, 99);
  const requests = wholeNumber("requests", values.requests, 1_000, 1_000_000);
  const path = PATHS.find((each) => each === values.path);
  if (path === undefined)
    throw new RangeError(
      `--path takes ${PATHS.join(" or ")}, not "${values.path}"`,
    );
  const shares = parseShares(values.shares);
  const sink = await otlpSink();
  try {
    const rounds: ShareRounds[] = shares.map((share) => ({
      share,
      figures: [],
    }));
    for (let round = 0; round < roundCount; round++) {
      const line: string[] = [];
      for (const of of roundOrder(rounds, round)) {
        const before = sink.spans();
        const figure = await workerFigure(of.share, sink.url, requests, path);
        // Every kept request's spans reached the sink, none dropped or left unsent (the worker
        // sends what it holds as it stops), and no request left out made one.
        const expected =
          path === "sdk" ? figure.keptRequests * SPANS_A_KEPT_REQUEST : 0;
        if (sink.spans() - before !== expected)
          throw new Error(
            `at a share of ${of.share}, the sink received ${sink.spans() - before} spans, not the ${expected} of ${figure.keptRequests} kept requests`,
          );
        of.figures.push(figure);
        line.push(
          `${of.share}: ${figure.cpuUsPerRequest.toFixed(1)} µs (main thread ${figure.mainThreadUsPerRequest.toFixed(1)}, its GC pauses ${figure.gcPauseUsPerRequest.toFixed(1)})`,
        );
      }
      console.log(`round ${round + 1}: ${line.join(" | ")}`);
    }
    const kept = rounds
      .flatMap((of) => of.figures)
      .reduce((sum, f) => sum + f.keptRequests, 0);
    console.log(
      `\n| path | share kept (median kept) | µs CPU a request | adds, µs a request | of it, main thread | other threads | main thread's GC pauses | one kept request adds, µs | over every request kept |`,
    );
    console.log("| --- | --- | --- | --- | --- | --- | --- | --- | --- |");
    for (const cost of keptCosts(rounds))
      console.log(
        `| ${path} | ${cost.share} (${cost.keptShare.toFixed(4)}) | ${cost.medianUs.toFixed(1)} | ${cost.addsUs.toFixed(2)} | ${cost.addsMainUs.toFixed(2)} | ${cost.addsOtherUs.toFixed(2)} | ${cost.addsGcPauseUs.toFixed(2)} | ${cost.share === 0 ? "" : cost.perKeptUs.toFixed(1)} | ${cost.overAllKept === undefined ? "" : `${cost.overAllKept.toFixed(2)}×`} |`,
      );
    if (path === "sdk")
      console.log(
        `\nspans received: ${sink.spans().toLocaleString("en-GB")}, ${SPANS_A_KEPT_REQUEST} for each of ${kept.toLocaleString("en-GB")} kept requests (warm-ups included)`,
      );
  } finally {
    await sink.close();
  }
}

if (import.meta.main) await main();
