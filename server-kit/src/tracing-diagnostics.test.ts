// What the SDK reports only to its diagnostic logger reaches the server's log: spans dropped
// because its queue (2,048 spans) was full, and a collector's partial success. A file of its
// own: startTracing sets the process's diagnostic logger.
import { expect, it, vi } from "vitest";
import { tracingPerTest } from "./testing/tracing-per-test.ts";

const traced = tracingPerTest();

/** Tracing every request to a collector answering `body`: `requests(count)` sends them. */
const tracingTo = (body?: object) => traced({ body });

/** A line of what the SDK reported, as the log holds it. */
const problem = (detail: string) => ({
  level: "warn",
  message: "tracing reported a problem",
  fields: { detail },
});

/**
 * `count` requests traced to a collector answering `body`, then closed: what was logged, and
 * how many spans the collector received.
 */
async function loggedAfter(count: number, body?: object) {
  const { tracing, logger, collector, requests } = await tracingTo(body);
  await requests(count);
  await tracing.close();
  return { logged: logger.entries, spans: collector.spans.length };
}

it("logs how many spans a full queue dropped, once it has room again, and goes on answering", async () => {
  const { tracing, logger, collector, requests } = await tracingTo();
  // The 512th span sends a batch; the collector's answer cannot arrive while the requests run
  // one microtask after another, so the next 2,048 fill the queue and 40 more are dropped.
  await requests(512 + 2_048 + 40);
  expect(logger.entries).toEqual([]);
  // The batch answered, the queue sends the next and has room: the next span is queued, and the
  // count of those dropped before it is told.
  await expect
    .poll(() => collector.spans.length, { timeout: 10_000 })
    .toBeGreaterThan(512);
  await requests(1);
  expect(logger.entries).toEqual([
    problem("Dropped 40 spans because maxQueueSize reached"),
  ]);
  await tracing.close();
  // Every span queued was sent: all but the 40.
  expect(collector.spans).toHaveLength(512 + 2_048 + 1);
  expect(logger.entries).toHaveLength(1);
}, 30_000);

it("logs a collector's partial success: the spans it rejected and why", async () => {
  // The file's second start: the first's close() unregistered what it had registered, else
  // OpenTelemetry's API would report a duplicate registration here too.
  const { logged } = await loggedAfter(3, {
    partialSuccess: { rejectedSpans: 2, errorMessage: "span too large" },
  });
  expect(logged).toEqual([
    problem(
      'Received Partial Success response: {"rejectedSpans":2,"errorMessage":"span too large"}',
    ),
  ]);
});

it("logs nothing of a partial success that rejected no span and says nothing, as some collectors send with every batch", async () => {
  expect(
    await loggedAfter(3, {
      partialSuccess: { rejectedSpans: 0, errorMessage: "" },
    }),
  ).toEqual({ logged: [], spans: 3 });
});

it("cuts a collector's long message to 1,000 characters", async () => {
  const said =
    'Received Partial Success response: {"rejectedSpans":1,"errorMessage":"';
  const { logged } = await loggedAfter(1, {
    partialSuccess: { rejectedSpans: 1, errorMessage: "x".repeat(5_000) },
  });
  expect(logged).toEqual([
    problem(`${said}${"x".repeat(1_000 - said.length)}…`),
  ]);
});

it("logs an OTEL_EXPORTER_OTLP_ setting the exporter cannot use, and traces on with its default", async () => {
  vi.stubEnv("OTEL_EXPORTER_OTLP_TIMEOUT", "soon");
  expect(await loggedAfter(1)).toEqual({
    logged: [
      problem(
        "Unknown value 'soon' for OTEL_EXPORTER_OTLP_TIMEOUT, expected a number, using defaults",
      ),
    ],
    spans: 1,
  });
});
