// Health and readiness probes make no span, on the service or at the edge: polled every few
// seconds by supervisors and load balancers, they would be most of a quiet server's traces. A
// file of its own: startTracing sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { expect, it } from "vitest";
import { tracingPerTest } from "./testing/tracing-per-test.ts";

const started = tracingPerTest();

/** The paths among `paths` whose requests had a span, tracing every request. */
async function tracedPaths(edge: boolean, paths: string[]) {
  const { tracing, collector } = await started({
    edge,
    sampler: "parentbased_always_on",
  });
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
