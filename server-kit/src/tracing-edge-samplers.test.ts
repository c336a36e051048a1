// At the edge, every sampler decides on the trace id alone: a caller's flag, sampled or not,
// changes nothing. A file of its own: startTracing sets the process's tracer.
import { trace, TraceFlags } from "@opentelemetry/api";
import { silentLogger } from "./logger.ts";
import { afterAll, beforeAll, expect, it } from "vitest";
import {
  startOtlpReceiver,
  type OtlpReceiver,
} from "./testing/otlp-receiver.ts";
import { startTracing } from "./tracing.ts";
import { TRACES_SAMPLERS } from "./tracing-settings.ts";

/** Trace ids a share of 0.5 keeps and leaves out (tracing-edge.test.ts checks both). */
const KEPT = "00000000000000000000000000000001";
const LEFT_OUT = "4bf92f3577b34da6a3ce929d0e0e4736";
const PARENT = "00f067aa0ba902b7";

let receiver: OtlpReceiver;
beforeAll(async () => {
  receiver = await startOtlpReceiver();
});
afterAll(() => receiver.close());

/** What each sampler keeps of the two trace ids, whatever the caller's flag says. */
const EXPECTED: Record<(typeof TRACES_SAMPLERS)[number], [boolean, boolean]> = {
  always_on: [true, true],
  always_off: [false, false],
  traceidratio: [true, false],
  parentbased_always_on: [true, true],
  parentbased_always_off: [false, false],
  parentbased_traceidratio: [true, false],
};

it.each(TRACES_SAMPLERS)(
  "%s keeps by the trace id, not the caller's flag",
  async (sampler) => {
    const tracing = await startTracing(
      {
        tracesUrl: receiver.url,
        serviceName: "vics-proxy",
        sampler,
        ratio: 0.5,
      },
      { edge: true, logger: silentLogger },
    );
    try {
      const fetch = tracing.traceRequests((_request: Request) => {
        const flags = trace.getActiveSpan()?.spanContext().traceFlags ?? 0;
        return new Response(String((flags & TraceFlags.SAMPLED) !== 0));
      });
      const keptOf = async (traceId: string, flag: string) => {
        const response = await fetch(
          new Request("http://127.0.0.1/api/v1/x", {
            headers: { traceparent: `00-${traceId}-${PARENT}-${flag}` },
          }),
        );
        return (await response.text()) === "true";
      };
      const [kept, leftOut] = EXPECTED[sampler];
      for (const flag of ["00", "01"]) {
        expect(await keptOf(KEPT, flag)).toBe(kept);
        expect(await keptOf(LEFT_OUT, flag)).toBe(leftOut);
      }
    } finally {
      await tracing.close();
    }
  },
);
