// One process of bench/tracing-mixing.ts: a request handler of fixed, synthetic work (no HTTP,
// no database), run over `requests` Requests after half as many to warm up, eight at a time, of
// which a share is kept. What "kept" means is the path:
// - sdk: tracing on, as the service runs it (@vics/server-kit/tracing, a follower's sampler): a
//   kept request's traceparent is flagged sampled, so it gets a server span and a span for each
//   of its two store calls, batched and sent to `sinkUrl`; the rest make none;
// - context: no tracing; a kept request runs in an AsyncLocalStorage context of its own, the rest
//   in none: the least a different path for some requests can be.
// Prints one line of JSON (WorkerFigure): the process's CPU µs a measured request, split into its
// main thread's and its other threads' (V8's helpers: garbage collection, compilers), with the
// main thread's garbage-collection pauses among them; the share of them kept; and the requests
// kept, the warm-up's too.
// Run by bench/tracing-mixing.ts: `node bench/tracing-mixing-worker.ts <share> <sinkUrl> <requests> <path>`.
import { AsyncLocalStorage } from "node:async_hooks";
import { randomBytes } from "node:crypto";
import { PerformanceObserver } from "node:perf_hooks";
import { startTracing, TRACEPARENT_HEADER } from "@vics/server-kit/tracing";
import { SPAN_BATCH_DEFAULTS } from "@vics/server-kit/tracing-settings";

export const PATHS = ["sdk", "context"] as const;
export type KeptPath = (typeof PATHS)[number];

/** What a worker prints. */
export interface WorkerFigure {
  /** The whole process's CPU, all threads. */
  cpuUsPerRequest: number;
  /** Of it, the main thread's (the rest is V8's and libuv's helper threads'). */
  mainThreadUsPerRequest: number;
  /** Of the main thread's, its garbage-collection pauses. */
  gcPauseUsPerRequest: number;
  /** The share of the measured requests kept. */
  keptShare: number;
  /** Requests kept, the warm-up's too: each makes SPANS_A_KEPT_REQUEST spans on the sdk path. */
  keptRequests: number;
}

/** A kept request's spans on the sdk path: its server span and one for each store call. */
export const SPANS_A_KEPT_REQUEST = 3;

/** Requests in flight at once, as a server has a few. */
const LANES = 8;

async function main() {
  const [shareArg, sinkUrl, requestsArg, pathArg] = process.argv.slice(2);
  const share = Number(shareArg);
  const requests = Number(requestsArg);
  const path = pathArg as KeptPath;
  if (!(share >= 0 && share <= 1) || !(requests > 0) || !PATHS.includes(path))
    throw new RangeError(
      `usage: <share 0-1> <sinkUrl> <requests> <sdk|context>`,
    );

  const tracing = await startTracing(
    path === "sdk"
      ? {
          tracesUrl: sinkUrl!,
          serviceName: "vics-tracing-mixing",
          sampler: "parentbased_always_on",
          ratio: 1,
          // A queue that drops nothing, even with every request kept: a dropped span is work
          // not done, and a kept request would seem cheaper than it is.
          batch: { ...SPAN_BATCH_DEFAULTS, maxQueueSize: 1 << 16 },
        }
      : undefined,
    // A span dropped or not sent is said on stderr, and the bench's count of them differs.
    { logger: { warn: (message, fields) => console.error(message, fields) } },
  );
  const store = tracing.traceCalls(vehicleStore(), "sqlite");
  const handle = async (request: Request) => {
    const registration = new URL(request.url).pathname.split("/").pop()!;
    const vehicle = await store.findVehicle(registration);
    const info = await store.dataInfo();
    return Response.json({
      vehicle,
      info,
      digest: work(registration),
      checks: ["insured", "taxed", "mot", "fines"].map((check) => ({
        check,
        vehicle: JSON.parse(JSON.stringify(vehicle)) as unknown,
      })),
    });
  };
  const context = new AsyncLocalStorage<{ kept: true }>();
  const traced = tracing.traceRequests(handle);
  const kept = { kept: true } as const;
  const respond =
    path === "sdk"
      ? traced
      : (request: Request, isKept: boolean) =>
          isKept ? context.run(kept, () => handle(request)) : handle(request);

  let keptCount = 0;
  const run = async (count: number) => {
    let started = 0;
    const lane = async () => {
      while (started < count) {
        // Each request from a macrotask of its own, as a server's come from its sockets: the
        // event loop turns between them, so the spans' batches are sent while the run goes on
        // (a run of microtasks alone would hold them all until it ends).
        started += 1;
        const index = started;
        await new Promise((resolve) => setImmediate(resolve));
        const isKept = Math.random() < share;
        if (isKept) keptCount += 1;
        const traceparent = `00-${randomBytes(16).toString("hex")}-${randomBytes(8).toString("hex")}-${isKept ? "01" : "00"}`;
        const response = await respond(
          new Request(`http://vics.test/v1/compliance/AB${index % 977}CDE`, {
            headers: { [TRACEPARENT_HEADER]: traceparent },
          }),
          isKept,
        );
        await response.text();
      }
    };
    await Promise.all(Array.from({ length: LANES }, lane));
  };
  await run(Math.ceil(requests / 2));
  const warmUpKept = keptCount;
  keptCount = 0;
  let gcPauseMs = 0;
  const gc = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) gcPauseMs += entry.duration;
  });
  gc.observe({ entryTypes: ["gc"] });
  const before = process.cpuUsage();
  const mainBefore = process.threadCpuUsage();
  await run(requests);
  const mainUsed = process.threadCpuUsage(mainBefore);
  const used = process.cpuUsage(before);
  // The observer is told on a later turn of the event loop: let the run's last pauses arrive.
  await new Promise((resolve) => setImmediate(resolve));
  gc.disconnect();
  await tracing.close();
  const figure: WorkerFigure = {
    cpuUsPerRequest: (used.user + used.system) / requests,
    mainThreadUsPerRequest: (mainUsed.user + mainUsed.system) / requests,
    gcPauseUsPerRequest: (gcPauseMs * 1000) / requests,
    keptShare: keptCount / requests,
    keptRequests: warmUpKept + keptCount,
  };
  console.log(JSON.stringify(figure));
}

/** A store of the service's shape, in memory: each call answered on the next microtask. */
function vehicleStore() {
  const vehicles = Array.from({ length: 1_000 }, (_, i) => ({
    registration: `AB${i}CDE`,
    make: "FORD",
    colour: "BLUE",
    taxed: i % 2 === 0,
    motExpiry: "2027-01-01",
    fines: [{ amount: 100, issued: "2026-01-01" }],
    insurance: { insurer: "Example Insurance", policy: `P${i}` },
  }));
  return {
    async findVehicle(registration: string) {
      await Promise.resolve();
      return vehicles[(registration.length * 37) % vehicles.length];
    },
    async dataInfo() {
      return { asOf: { tax: "2026-11-01" } };
    },
  };
}

/** About 20 µs of arithmetic on this machine, so a request is about 68 µs of CPU in all. */
function work(registration: string): number {
  let hash = 0;
  for (let i = 0; i < 20_000; i++)
    hash = (hash * 31 + registration.charCodeAt(i % registration.length)) | 0;
  return hash;
}

if (import.meta.main) await main();
