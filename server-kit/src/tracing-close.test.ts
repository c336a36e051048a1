// No collector takes the spans: while a server runs, each batch refused is logged and checks are
// answered as usual; at a stop, close() tells the log why the spans held were not sent, never
// fails and waits at most STOP_EXPORT_MS, so a server stops as cleanly and as soon as it would
// have. A file of its own: startTracing sets the process's tracer and error handler.
import { trace } from "@opentelemetry/api";
import { expect, it } from "vitest";
import { tracingPerTest } from "./testing/tracing-per-test.ts";
import { STOP_EXPORT_MS } from "./tracing.ts";

const tracingTo = tracingPerTest();

/** Traces one request to a collector answering `status`, then closes: the warnings logged. */
async function closedAfterOneRequest(status: number | "never") {
  const { tracing, collector, logger } = await tracingTo({ status });
  let recorded = false;
  const fetch = tracing.traceRequests((_request: Request) => {
    recorded = trace.getActiveSpan()?.isRecording() === true;
    return new Response("ok");
  });
  await fetch(new Request("http://127.0.0.1/v1/x"));
  expect(recorded).toBe(true);
  // Held, not yet sent (a batch waits 5 seconds): the stop sends it.
  await tracing.close();
  // The span was offered to the collector.
  expect(collector.spans.map(({ name }) => name)).toEqual(["GET"]);
  return logger.entries;
}

it("logs why the spans held at the stop were not sent when the collector refuses them", async () => {
  expect(await closedAfterOneRequest(400)).toEqual([
    {
      level: "warn",
      message: "traces held at the stop were not sent",
      fields: { reason: "Bad Request" },
    },
  ]);
});

it("waits for a collector that never answers no longer than its bound, not the exporter's 10 s", async () => {
  // Were close() to wait for the exporter, the reason would be the exporter's time-out.
  expect(await closedAfterOneRequest("never")).toEqual([
    {
      level: "warn",
      message: "traces held at the stop were not sent",
      fields: { reason: `not sent within ${STOP_EXPORT_MS / 1000} s` },
    },
  ]);
}, 30_000);

it("logs each batch the collector refuses while the server runs, and goes on answering", async () => {
  const { tracing, collector, logger, requests } = await tracingTo({
    status: 400,
  });
  // A full batch (512 spans) is sent at once, not 5 seconds later.
  await requests(512);
  await expect
    .poll(() => logger.entries, { timeout: 10_000 })
    .toEqual([
      {
        level: "warn",
        message: "traces not sent",
        fields: { reason: "Bad Request" },
      },
    ]);
  expect(collector.spans).toHaveLength(512);
  // Nothing was held at the stop: the close adds no line.
  await tracing.close();
  expect(logger.entries).toHaveLength(1);
}, 30_000);
