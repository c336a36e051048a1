// The proxy is where VICS's traces begin: whatever flag a caller's traceparent carries, the
// proxy's own share decides, on the trace's id, before the SDK is asked; a request left out is
// sent on as not sampled in its trace, and a kept one's trace has the id it was decided on. A
// file of its own: startTracing sets the process's tracer.
import { ROOT_CONTEXT, trace, TraceFlags, type Span } from "@opentelemetry/api";
import {
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace";
import { memoryLogger } from "./testing/memory-logger.ts";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  startOtlpReceiver,
  type OtlpReceiver,
} from "./testing/otlp-receiver.ts";
import { startClientCall, startTracing, type Tracing } from "./tracing.ts";

const SHARE = 0.5;
/** Two trace ids, one on each side of a share of 0.5 (checked below with the SDK's sampler). */
const KEPT = "00000000000000000000000000000001";
const LEFT_OUT = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

/** Whether a share of 0.5 keeps `traceId`, by the SDK's own sampler. */
const keeps = (traceId: string) =>
  new TraceIdRatioBasedSampler(SHARE).shouldSample(ROOT_CONTEXT, traceId)
    .decision === SamplingDecision.RECORD_AND_SAMPLED;

let receiver: OtlpReceiver;
let tracing: Tracing;
/** What the tracing logs: nothing, as every span reaches the receiver. */
const log = memoryLogger("warn");
beforeAll(async () => {
  receiver = await startOtlpReceiver();
  tracing = await startTracing(
    {
      tracesUrl: receiver.url,
      serviceName: "vics-proxy",
      sampler: "parentbased_traceidratio",
      ratio: SHARE,
    },
    { edge: true, logger: log },
  );
});
afterAll(async () => {
  await tracing.close();
  await receiver.close();
});

/** What a request saw inside the proxy: its span, its store call's, the traceparent sent on. */
const served = async (traceparent: string | undefined) => {
  const store = tracing.traceCalls(
    { find: () => trace.getActiveSpan() },
    "sqlite",
  );
  let seen:
    { span?: Span; stored?: Span; sent: string | undefined } | undefined;
  const fetch = tracing.traceRequests((request: Request) => {
    const span = trace.getActiveSpan();
    const stored = store.find();
    const call = startClientCall("GET", "http://127.0.0.1:1", "/v1/x", request);
    call.end(200);
    seen = { span, stored, sent: call.traceparent };
    return new Response("ok");
  });
  await fetch(
    new Request("http://127.0.0.1/api/v1/x", {
      headers: traceparent === undefined ? {} : { traceparent },
    }),
  );
  return seen!;
};

const sampled = (span: Span | undefined) =>
  span !== undefined &&
  (span.spanContext().traceFlags & TraceFlags.SAMPLED) !== 0;

it("the two trace ids fall on each side of the share", () => {
  expect(keeps(KEPT)).toBe(true);
  expect(keeps(LEFT_OUT)).toBe(false);
});

it("leaves out a request its share leaves out though its caller says sampled, and sends it on as not sampled in the caller's trace", async () => {
  const { span, stored, sent } = await served(`00-${LEFT_OUT}-${PARENT}-01`);
  // No span at all, of the SDK's or of a context: neither the request nor its store call has one.
  expect(span).toBeUndefined();
  expect(stored).toBeUndefined();
  // Sent on with the caller's ids, flagged not sampled.
  expect(sent).toBe(`00-${LEFT_OUT}-${PARENT}-00`);
});

it("keeps a request its share keeps though its caller says not sampled, in the caller's trace", async () => {
  const { span, stored, sent } = await served(`00-${KEPT}-${PARENT}-00`);
  // Sampled (isRecording() would be false: both spans have ended by now).
  expect(sampled(span)).toBe(true);
  expect(span?.spanContext().traceId).toBe(KEPT);
  // The store's call is a span of its own, in the same trace.
  expect(sampled(stored)).toBe(true);
  expect(stored?.spanContext().spanId).not.toBe(span?.spanContext().spanId);
  // Sent on as sampled, from the client call's own span.
  expect(sent).toMatch(new RegExp(`^00-${KEPT}-[0-9a-f]{16}-01$`));
  expect(sent).not.toContain(span?.spanContext().spanId);
});

it("decides a request with no traceparent (or a malformed one) on a new trace id, which its trace then has", async () => {
  const requests = 200;
  const kept: string[] = [];
  const leftOut: string[] = [];
  for (let request = 0; request < requests; request++) {
    const { span, sent } = await served(
      // Upper-case hex: W3C's rules refuse it, so it is no caller's trace.
      request % 2 === 0
        ? undefined
        : `00-${LEFT_OUT.toUpperCase()}-${PARENT}-01`,
    );
    const [version, traceId, parentId, flags] = sent!.split("-");
    expect(version).toBe("00");
    expect(parentId).toMatch(/^[0-9a-f]{16}$/);
    expect(parentId).not.toBe(PARENT);
    if (sampled(span)) {
      expect(span?.spanContext().traceId).toBe(traceId);
      kept.push(traceId!);
      expect(flags).toBe("01");
    } else {
      // Left out: no span, and new ids flagged not sampled (drawn by the client call: the id the
      // edge judged is in no trace, as nothing of it is recorded).
      expect(span).toBeUndefined();
      expect(traceId).toMatch(/^[0-9a-f]{32}$/);
      leftOut.push(traceId!);
      expect(flags).toBe("00");
    }
  }
  // The share decided on the very id each kept trace has, and both sides were met (all 200 on
  // one side: about 1 in 10^60).
  expect(kept.every(keeps)).toBe(true);
  expect(kept.length).toBeGreaterThan(0);
  expect(leftOut.length).toBeGreaterThan(0);
  expect(new Set([...kept, ...leftOut]).size).toBe(requests);
  // Exactly the kept requests' spans reach the receiver: the request, its store call and its
  // client call, three each; none of a request left out.
  await tracing.close();
  expect(log.entries).toEqual([]);
  const spansOf = (traceId: string) =>
    receiver.spans.filter((span) => span.traceId === traceId).length;
  expect(kept.map(spansOf)).toEqual(kept.map(() => 3));
  expect(leftOut.map(spansOf)).toEqual(leftOut.map(() => 0));
});
