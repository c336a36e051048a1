// A stop while no collector takes the spans held: close() tells the log why, never fails and
// waits at most STOP_EXPORT_MS, so a server stops as cleanly and as soon as it would have. A file
// of its own: startTracing sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { afterEach, expect, it } from "vitest";
import { memoryLogger } from "./testing/memory-logger.ts";
import {
  type OtlpReceiver,
  startOtlpReceiver,
} from "./testing/otlp-receiver.ts";
import { STOP_EXPORT_MS, startTracing } from "./tracing.ts";

let receiver: OtlpReceiver | undefined;
afterEach(() => receiver?.close());

/** Traces one request to `receiver`, then closes: the warnings the close logged. */
async function closedAfterOneRequest(collector: OtlpReceiver) {
  receiver = collector;
  const tracing = await startTracing({
    tracesUrl: collector.url,
    serviceName: "vics-service",
    sampler: "always_on",
    ratio: 1,
  });
  let recorded = false;
  const fetch = tracing.traceRequests((_request: Request) => {
    recorded = trace.getActiveSpan()?.isRecording() === true;
    return new Response("ok");
  });
  await fetch(new Request("http://127.0.0.1/v1/x"));
  expect(recorded).toBe(true);
  // Held, not yet sent (a batch waits 5 seconds): the stop sends it.
  const logger = memoryLogger("warn");
  await tracing.close(logger);
  // The span was offered to the collector.
  expect(collector.spans.map(({ name }) => name)).toEqual(["GET"]);
  return logger.entries;
}

it("logs why the spans held at the stop were not sent when the collector refuses them", async () => {
  expect(
    await closedAfterOneRequest(await startOtlpReceiver({ status: 400 })),
  ).toEqual([
    {
      level: "warn",
      message: "traces held at the stop were not sent",
      fields: { reason: "Bad Request" },
    },
  ]);
});

it("waits for a collector that never answers no longer than its bound, not the exporter's 10 s", async () => {
  // Were close() to wait for the exporter, the reason would be the exporter's time-out.
  expect(
    await closedAfterOneRequest(await startOtlpReceiver({ status: "never" })),
  ).toEqual([
    {
      level: "warn",
      message: "traces held at the stop were not sent",
      fields: { reason: `not sent within ${STOP_EXPORT_MS / 1000} s` },
    },
  ]);
}, 30_000);
