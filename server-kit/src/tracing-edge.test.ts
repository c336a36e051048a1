// The proxy is where VICS's traces begin: whatever flag a caller's traceparent carries, the
// proxy's own share decides. A file of its own: startTracing sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { afterAll, expect, it } from "vitest";
import { startTracing, type Tracing } from "./tracing.ts";

let tracing: Tracing | undefined;
afterAll(() => tracing?.close());

const recording = async (traceparent: string) => {
  let recorded: boolean | undefined;
  const fetch = tracing!.traceRequests((_request: Request) => {
    recorded = trace.getActiveSpan()?.isRecording();
    return new Response("ok");
  });
  await fetch(
    new Request("http://127.0.0.1/api/v1/x", { headers: { traceparent } }),
  );
  return recorded;
};

it("at the edge, keeps a share of the requests whether a caller's traceparent says sampled or not", async () => {
  tracing = await startTracing(
    {
      // Nothing is exported: no span is kept at a share of 0.
      tracesUrl: "http://127.0.0.1:9/v1/traces",
      serviceName: "vics-proxy",
      sampler: "parentbased_traceidratio",
      ratio: 0,
    },
    { edge: true },
  );
  const ids = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7";
  expect(await recording(`00-${ids}-01`)).toBe(false);
  expect(await recording(`00-${ids}-00`)).toBe(false);
});
