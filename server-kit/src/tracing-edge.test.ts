// The proxy is where VICS's traces begin: whatever flag a caller's traceparent carries, the
// proxy's own share decides. A file of its own: startTracing sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { afterAll, expect, it } from "vitest";
import { startClientCall, startTracing, type Tracing } from "./tracing.ts";

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

it("sends a request the share left out on as not sampled, with its trace id, and spans none of its store's calls", async () => {
  // tracing was started by the test above, at a share of 0.
  const ids = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7";
  const store = tracing!.traceCalls(
    {
      answer: 42,
      find(this: { answer: number }) {
        return { answer: this.answer, span: trace.getActiveSpan() };
      },
    },
    "sqlite",
  );
  let sent: string | undefined;
  let found: ReturnType<typeof store.find> | undefined;
  let request: string | undefined;
  const outer = trace.getActiveSpan();
  const fetch = tracing!.traceRequests((_request: Request) => {
    request = trace.getActiveSpan()?.spanContext().spanId;
    found = store.find();
    sent = startClientCall(
      "GET",
      "http://127.0.0.1:1",
      "/v1/x",
      `00-${ids}-01`,
    ).traceparent;
    return new Response("ok");
  });
  await fetch(
    new Request("http://127.0.0.1/api/v1/x", {
      headers: { traceparent: `00-${ids}-01` },
    }),
  );
  expect(sent).toMatch(/^00-4bf92f3577b34da6a3ce929d0e0e4736-[0-9a-f]{16}-00$/);
  // The request's own (unsampled) span id, not the caller's: the proxy's server span.
  expect(sent).toContain(`-${request}-`);
  expect(sent).not.toContain("00f067aa0ba902b7");
  // The store's call ran in the request's span, with no span of its own around it.
  expect(found?.answer).toBe(42);
  expect(found?.span?.isRecording()).toBe(false);
  expect(found?.span?.spanContext().spanId).toBe(request);
  expect(found?.span?.spanContext().traceId).toBe(
    "4bf92f3577b34da6a3ce929d0e0e4736",
  );
  expect(outer).toBeUndefined();
});
