// A server that is not the edge (the service) follows its caller's decision: a request whose
// traceparent says not sampled records nothing and asks nothing of the SDK; a sampled one is
// traced. A file of its own: startTracing sets the process's tracer.
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { trace } from "@opentelemetry/api";
import { describe, expect, it } from "vitest";
import { sampledFlag, startTracing, type Tracing } from "./tracing.ts";

const IDS = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7";

describe("sampledFlag", () => {
  it("reads bit 0 of a valid traceparent's flags, and nothing of an invalid one", () => {
    expect(sampledFlag(`00-${IDS}-01`)).toBe(true);
    expect(sampledFlag(`00-${IDS}-03`)).toBe(true);
    expect(sampledFlag(`00-${IDS}-00`)).toBe(false);
    expect(sampledFlag(`00-${IDS}-02`)).toBe(false);
    // A later version's, its fields after the fourth dropped.
    expect(sampledFlag(`01-${IDS}-01-more`)).toBe(true);
    expect(sampledFlag(`ff-${IDS}-01`)).toBeUndefined();
    expect(sampledFlag(`00-${IDS.toUpperCase()}-01`)).toBeUndefined();
  });
});

describe("a server that follows its caller", () => {
  let tracing: Tracing | undefined;

  /** The request's active span, if any: whether it records (while it runs) and its trace. */
  const seen = async (traceparent: string | undefined) => {
    let span: { recording: boolean; traceId: string } | undefined;
    const fetch = tracing!.traceRequests((_request: Request) => {
      const active = trace.getActiveSpan();
      span = active && {
        recording: active.isRecording(),
        traceId: active.spanContext().traceId,
      };
      return new Response("ok");
    });
    await fetch(
      new Request("http://127.0.0.1/v1/x", {
        headers: traceparent === undefined ? {} : { traceparent },
      }),
    );
    return span;
  };

  it("leaves a request its caller left out untouched, and traces one its caller sampled", async () => {
    // An OTLP/http receiver: the trace ids of the spans exported to it.
    const exported: string[] = [];
    const receiver = createServer((request, response) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString()));
      request.on("end", () => {
        const sent = JSON.parse(body) as {
          resourceSpans: { scopeSpans: { spans: { traceId: string }[] }[] }[];
        };
        for (const resource of sent.resourceSpans)
          for (const scope of resource.scopeSpans)
            for (const span of scope.spans) exported.push(span.traceId);
        response.writeHead(200, { "Content-Type": "application/json" });
        response.end("{}");
      });
    });
    await new Promise<void>((resolve) =>
      receiver.listen(0, "127.0.0.1", resolve),
    );
    const { port } = receiver.address() as AddressInfo;
    tracing = await startTracing({
      tracesUrl: `http://127.0.0.1:${port}/v1/traces`,
      serviceName: "vics-service",
      sampler: "parentbased_always_on",
      ratio: 1,
    });
    expect(await seen(`00-${IDS}-00`)).toBeUndefined();
    const sampled = await seen(`00-${IDS}-01`);
    expect(sampled).toEqual({ recording: true, traceId: IDS.slice(0, 32) });
    // No caller's decision (none sent, or a malformed one): the sampler's own, here always on.
    expect((await seen(undefined))?.recording).toBe(true);
    expect((await seen(`00-${IDS.toUpperCase()}-00`))?.recording).toBe(true);
    // Sent as the tracing stops: the three traced requests' spans, one of them in the caller's
    // trace; the request left out sent nothing.
    await tracing.close();
    receiver.close();
    expect(exported).toHaveLength(3);
    expect(exported.filter((id) => id === IDS.slice(0, 32))).toHaveLength(1);
  });
});
