// The proxy is where VICS's traces begin: whatever flag a caller's traceparent carries, the
// proxy's own share decides, on the trace's id, before the SDK is asked; a request left out has
// no span at all and is sent on as not sampled. A file of its own: startTracing sets the
// process's tracer.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { ROOT_CONTEXT, SpanKind, trace, TraceFlags } from "@opentelemetry/api";
import {
  SamplingDecision,
  TraceIdRatioBasedSampler,
} from "@opentelemetry/sdk-trace";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startClientCall, startTracing, type Tracing } from "./tracing.ts";

const SHARE = 0.5;
/** Two trace ids, one on each side of a share of 0.5 (checked below with the SDK's sampler). */
const KEPT = "00000000000000000000000000000001";
const LEFT_OUT = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

let tracing: Tracing;
const exported: { traceId: string; name: string }[] = [];
const receiver = createServer((request, response) => {
  let body = "";
  request.on("data", (chunk: Buffer) => (body += chunk.toString()));
  request.on("end", () => {
    const sent = JSON.parse(body) as {
      resourceSpans: {
        scopeSpans: { spans: { traceId: string; name: string }[] }[];
      }[];
    };
    for (const resource of sent.resourceSpans)
      for (const scope of resource.scopeSpans)
        for (const { traceId, name } of scope.spans)
          exported.push({ traceId, name });
    response.writeHead(200, { "Content-Type": "application/json" });
    response.end("{}");
  });
});

beforeAll(async () => {
  await new Promise<void>((resolve) =>
    receiver.listen(0, "127.0.0.1", resolve),
  );
  const { port } = receiver.address() as AddressInfo;
  tracing = await startTracing(
    {
      tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
      serviceName: "vics-proxy",
      sampler: "parentbased_traceidratio",
      ratio: SHARE,
    },
    { edge: true },
  );
});
afterAll(() => new Promise((resolve) => receiver.close(resolve)));

/** What a request saw inside the proxy: its span, its store call's, the traceparent sent on. */
const served = async (traceparent: string | undefined) => {
  const store = tracing.traceCalls(
    {
      answer: 42,
      find(this: { answer: number }) {
        return { answer: this.answer, span: trace.getActiveSpan() };
      },
    },
    "sqlite",
  );
  let seen:
    | {
        span: ReturnType<typeof trace.getActiveSpan>;
        found: ReturnType<typeof store.find>;
        sent: string | undefined;
      }
    | undefined;
  const fetch = tracing.traceRequests((request: Request) => {
    const span = trace.getActiveSpan();
    const found = store.find();
    const call = startClientCall(
      "GET",
      "http://127.0.0.1:1",
      "/v1/x",
      request.headers.get("traceparent") ?? undefined,
    );
    call.end(200);
    seen = { span, found, sent: call.traceparent };
    return new Response("ok");
  });
  await fetch(
    new Request("http://127.0.0.1/api/v1/x", {
      headers: traceparent === undefined ? {} : { traceparent },
    }),
  );
  return seen!;
};

it("the two trace ids fall on each side of the share", () => {
  const decide = (traceId: string) =>
    new TraceIdRatioBasedSampler(SHARE).shouldSample(
      ROOT_CONTEXT,
      traceId,
      "GET",
      SpanKind.SERVER,
      {},
      [],
    ).decision;
  expect(decide(KEPT)).toBe(SamplingDecision.RECORD_AND_SAMPLED);
  expect(decide(LEFT_OUT)).toBe(SamplingDecision.NOT_RECORD);
});

it("leaves out a request its share leaves out though its caller says sampled: no span, and sent on as not sampled in the caller's trace", async () => {
  const { span, found, sent } = await served(`00-${LEFT_OUT}-${PARENT}-01`);
  expect(span).toBeUndefined();
  // The store's call ran with no span around it.
  expect(found.answer).toBe(42);
  expect(found.span).toBeUndefined();
  expect(sent).toMatch(new RegExp(`^00-${LEFT_OUT}-[0-9a-f]{16}-00$`));
  expect(sent).not.toContain(PARENT);
  expect(trace.getActiveSpan()).toBeUndefined();
});

it("keeps a request its share keeps though its caller says not sampled, in the caller's trace", async () => {
  const { span, found, sent } = await served(`00-${KEPT}-${PARENT}-00`);
  // Sampled (isRecording() would be false: both spans have ended by now).
  expect(span?.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
  expect(span?.spanContext().traceId).toBe(KEPT);
  // The store's call is a span of its own, child of the request's.
  expect(found.span?.spanContext().traceFlags).toBe(TraceFlags.SAMPLED);
  expect(found.span?.spanContext().spanId).not.toBe(span?.spanContext().spanId);
  // Sent on as sampled, from the client call's own span.
  expect(sent).toMatch(new RegExp(`^00-${KEPT}-[0-9a-f]{16}-01$`));
  expect(sent).not.toContain(span?.spanContext().spanId);
});

it("decides a request with no traceparent (or a malformed one) on a new trace id, and sends each on with the decision", async () => {
  const requests = 200;
  let recorded = 0;
  const traceIds = new Set<string>();
  for (let request = 0; request < requests; request++) {
    const { span, sent } = await served(
      request % 2 === 0 ? undefined : `00-${LEFT_OUT.toUpperCase()}-x-01`,
    );
    const [, traceId, , flags] = sent!.split("-");
    traceIds.add(traceId!);
    if (span === undefined) {
      expect(flags).toBe("00");
    } else {
      recorded += 1;
      expect(flags).toBe("01");
      expect(span.spanContext().traceId).toBe(traceId);
    }
  }
  // A share of 0.5 over 200 new trace ids: both sides met (all on one side: 2 in 10^60).
  expect(recorded).toBeGreaterThan(0);
  expect(recorded).toBeLessThan(requests);
  expect(traceIds.size).toBe(requests);
  // Exactly the kept requests' spans reach the receiver: the request, its store call and its
  // client call, three each; none of a request left out.
  await tracing.close();
  const keptTraces = new Set(exported.map(({ traceId }) => traceId));
  expect(keptTraces.has(LEFT_OUT)).toBe(false);
  expect(keptTraces.has(KEPT)).toBe(true);
  expect(exported).toHaveLength((recorded + 1) * 3);
});
