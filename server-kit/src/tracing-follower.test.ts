// A server that is not the edge (the service) follows its caller's decision: a request whose
// traceparent says not sampled records nothing and asks nothing of the SDK; a sampled one is
// traced. A file of its own: startTracing sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { memoryLogger } from "./testing/memory-logger.ts";
import { describe, expect, it } from "vitest";
import {
  followsItsCaller,
  sampledFlag,
  startTracing,
  type Tracing,
} from "./tracing.ts";
import { TRACES_SAMPLERS } from "./tracing-settings.ts";
import { startOtlpReceiver } from "./testing/otlp-receiver.ts";

const IDS = "4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7";
const LATER = "5cf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7";

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

describe("followsItsCaller", () => {
  it("is a process that is not the edge, with a parent-based sampler, and no other", () => {
    const following = TRACES_SAMPLERS.filter((sampler) =>
      followsItsCaller(sampler, false),
    );
    expect(following).toEqual([
      "parentbased_always_on",
      "parentbased_always_off",
      "parentbased_traceidratio",
    ]);
    for (const sampler of TRACES_SAMPLERS)
      expect(followsItsCaller(sampler, true)).toBe(false);
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
    const receiver = await startOtlpReceiver();
    const log = memoryLogger("warn");
    tracing = await startTracing(
      {
        tracesUrl: receiver.url,
        serviceName: "vics-service",
        sampler: "parentbased_always_on",
        ratio: 1,
      },
      { logger: log },
    );
    expect(await seen(`00-${IDS}-00`)).toBeUndefined();
    const sampled = await seen(`00-${IDS}-01`);
    expect(sampled).toEqual({ recording: true, traceId: IDS.slice(0, 32) });
    // No caller's decision (none sent, or a malformed one): the sampler's own, here always on.
    expect((await seen(undefined))?.recording).toBe(true);
    expect((await seen(`00-${IDS.toUpperCase()}-00`))?.recording).toBe(true);
    // Work a sampled request leaves running after its answer (a store call in a timer) is still
    // its trace's, though the request's span has ended.
    const store = tracing.traceCalls({ later: async () => 1 }, "sqlite");
    let later: Promise<number> | undefined;
    const fetch = tracing.traceRequests((_request: Request) => {
      later = new Promise((resolve) =>
        setTimeout(() => resolve(store.later()), 10),
      );
      return new Response("ok");
    });
    await fetch(
      new Request("http://127.0.0.1/v1/x", {
        headers: { traceparent: `00-${LATER}-01` },
      }),
    );
    expect(await later).toBe(1);
    // A store made by a class: its methods, on the prototype, are called on the store itself
    // (its private field is reached); its other properties are read from it when asked; a
    // spread copies both. Called outside any request, a method makes no span.
    class Counter {
      #count = 0;
      limit = 2;
      async bump() {
        return ++this.#count;
      }
    }
    const counter = new Counter();
    const counted = tracing.traceCalls(counter, "sqlite");
    expect(await counted.bump()).toBe(1);
    counter.limit = 3;
    expect(counted.limit).toBe(3);
    // As the service's key cache spreads its store.
    const spread: Record<string, unknown> = { ...counted };
    expect(Object.keys(spread).sort()).toEqual(["bump", "limit"]);
    expect(await (spread.bump as Counter["bump"])()).toBe(2);
    // Sent as the tracing stops: the three traced requests' spans, one of them in the caller's
    // trace, then the last request's and its later call's; the request left out sent nothing.
    await tracing.close();
    expect(log.entries).toEqual([]);
    await receiver.close();
    const exported = receiver.spans;
    const inTrace = (ids: string) =>
      exported
        .filter(({ traceId }) => traceId === ids.slice(0, 32))
        .map(({ name }) => name);
    expect(exported).toHaveLength(5);
    expect(inTrace(IDS)).toEqual(["GET"]);
    expect(inTrace(LATER).sort()).toEqual(["GET", "later"]);
  });
});
