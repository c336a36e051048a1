// The OTEL_BSP_* settings reach the batch span processor: @opentelemetry/sdk-trace does not read
// them itself, so tracing passes them on from the servers' settings.
import { expect, it } from "vitest";
import { tracingPerTest } from "./testing/tracing-per-test.ts";
import { SPAN_BATCH_DEFAULTS } from "./tracing-settings.ts";

const traced = tracingPerTest();

/** The number of spans in each export's body (OTLP's JSON), in the order received. */
const spansPerExport = (bodies: string[]) =>
  bodies.map((body) =>
    (
      JSON.parse(body) as {
        resourceSpans: { scopeSpans: { spans: unknown[] }[] }[];
      }
    ).resourceSpans
      .flatMap((resource) => resource.scopeSpans)
      .reduce((count, scope) => count + scope.spans.length, 0),
  );

/** Tracing every request as `batch` says; `requests(count)` sends them, each a span. */
const tracedWith = (batch: Partial<typeof SPAN_BATCH_DEFAULTS>) =>
  traced({ batch: { ...SPAN_BATCH_DEFAULTS, ...batch } });

it("sends no batch larger than OTEL_BSP_MAX_EXPORT_BATCH_SIZE", async () => {
  const { tracing, collector, requests } = await tracedWith({
    maxExportBatchSize: 2,
  });
  await requests(5);
  await tracing.close();
  const sizes = spansPerExport(collector.bodies);
  // At the default, 512, the five would have gone in one export at the close.
  expect(sizes.length).toBeGreaterThanOrEqual(3);
  expect(Math.max(...sizes)).toBe(2);
  expect(sizes.reduce((sum, size) => sum + size, 0)).toBe(5);
});

it("sends a batch OTEL_BSP_SCHEDULE_DELAY after its first span, not the default 5 s", async () => {
  const { collector, requests } = await tracedWith({ scheduledDelayMillis: 0 });
  await requests(1);
  // Never closed: only the schedule can have sent it, well before the default's 5 s.
  await expect.poll(() => collector.spans.length, { timeout: 4_000 }).toBe(1);
});

it("holds OTEL_BSP_MAX_QUEUE_SIZE spans at most, and gives up on an export after OTEL_BSP_EXPORT_TIMEOUT", async () => {
  const { logger, requests } = await traced({
    status: "never",
    batch: {
      ...SPAN_BATCH_DEFAULTS,
      maxQueueSize: 2,
      maxExportBatchSize: 1,
      exportTimeoutMillis: 1_000,
    },
  });
  // The first span goes at once, to a collector that never answers; the next two are held,
  // and the last two find the queue full.
  await requests(5);
  expect(logger.entries).toEqual([]);
  // Given up after a second, not the default's 30: the queue sends its next and has room.
  await expect
    .poll(() => logger.entries, { timeout: 10_000 })
    .toContainEqual({
      level: "warn",
      message: "traces not sent",
      fields: { reason: "Timeout" },
    });
  await requests(1);
  expect(logger.entries).toContainEqual({
    level: "warn",
    message: "tracing reported a problem",
    fields: { detail: "Dropped 2 spans because maxQueueSize reached" },
  });
}, 20_000);
