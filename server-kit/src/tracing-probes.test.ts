// Health and readiness probes make no span, on the service or at the edge: polled every few
// seconds by supervisors and load balancers, they would be most of a quiet server's traces. A
// file of its own: startTracing sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { memoryLogger } from "./testing/memory-logger.ts";
import {
  type OtlpReceiver,
  startOtlpReceiver,
} from "./testing/otlp-receiver.ts";
import { startTracing, type Tracing } from "./tracing.ts";

let collector: OtlpReceiver | undefined;
let tracing: Tracing | undefined;
afterEach(async () => {
  await tracing?.close();
  await collector?.close();
});

/** The paths among `paths` whose requests had a span, tracing every request. */
async function tracedPaths(edge: boolean, paths: string[]) {
  collector = await startOtlpReceiver();
  tracing = await startTracing(
    {
      tracesUrl: collector.url,
      serviceName: edge ? "vics-proxy" : "vics-service",
      sampler: "parentbased_always_on",
      ratio: 1,
    },
    { edge, logger: memoryLogger("warn") },
  );
  const traced: string[] = [];
  const fetch = tracing.traceRequests((request: Request) => {
    const { pathname, search } = new URL(request.url);
    if (trace.getActiveSpan()?.isRecording()) traced.push(pathname + search);
    return new Response("ok");
  });
  for (const path of paths)
    await fetch(new Request(`http://127.0.0.1:3001${path}`));
  await tracing.close();
  expect(collector.spans).toHaveLength(traced.length);
  return traced;
}

const PATHS = [
  "/health",
  "/ready",
  "/ready?verbose=1",
  "/healthz",
  "/v1/health",
  "/v1/vehicle/AB12CDE/insurance",
];

it("the service traces every request but its probes", async () => {
  expect(await tracedPaths(false, PATHS)).toEqual([
    "/healthz",
    "/v1/health",
    "/v1/vehicle/AB12CDE/insurance",
  ]);
});

it("the edge too", async () => {
  expect(await tracedPaths(true, PATHS)).toEqual([
    "/healthz",
    "/v1/health",
    "/v1/vehicle/AB12CDE/insurance",
  ]);
});
