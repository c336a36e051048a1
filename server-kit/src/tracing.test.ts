// Tracing off, as every server runs unless an OTLP endpoint is set; the traces themselves are
// proven against the real processes (proxy/src/traces.test.ts).
import { silentLogger } from "./logger.ts";
import { describe, expect, it } from "vitest";
import { z } from "zod";
import { SERVER_ENV_SHAPE, spanBatchOverQueue } from "./env-fields.ts";
import {
  passedOnTraceparent,
  nameServerSpan,
  startClientCall,
  startTracing,
} from "./tracing.ts";
import { tracingSettings } from "./tracing-settings.ts";

const VALID = "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01";

const fields = (source: Record<string, string>) =>
  z.object(SERVER_ENV_SHAPE).parse(source);

describe("tracingSettings", () => {
  it("is off when neither OTLP endpoint is set", () => {
    expect(tracingSettings(fields({}), "vics-service")).toBeUndefined();
  });

  it("adds /v1/traces to the general endpoint, with the specification's defaults", () => {
    expect(
      tracingSettings(
        fields({ OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318/" }),
        "vics-service",
      ),
    ).toEqual({
      tracesUrl: "http://collector:4318/v1/traces",
      serviceName: "vics-service",
      sampler: "parentbased_always_on",
      ratio: 1,
      batch: {
        scheduledDelayMillis: 5000,
        exportTimeoutMillis: 30000,
        maxQueueSize: 2048,
        maxExportBatchSize: 512,
      },
    });
  });

  it("takes the traces endpoint as it is, the service name and the sampler set", () => {
    expect(
      tracingSettings(
        fields({
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
          OTEL_EXPORTER_OTLP_TRACES_ENDPOINT: "https://traces.example/otlp",
          OTEL_SERVICE_NAME: "vics-proxy-eu",
          OTEL_TRACES_SAMPLER: "parentbased_traceidratio",
          OTEL_TRACES_SAMPLER_ARG: "0.1",
          OTEL_BSP_SCHEDULE_DELAY: "0",
          OTEL_BSP_EXPORT_TIMEOUT: "2000",
          OTEL_BSP_MAX_QUEUE_SIZE: "8192",
          OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "8192",
        }),
        "vics-proxy",
      ),
    ).toEqual({
      tracesUrl: "https://traces.example/otlp",
      serviceName: "vics-proxy-eu",
      sampler: "parentbased_traceidratio",
      ratio: 0.1,
      batch: {
        scheduledDelayMillis: 0,
        exportTimeoutMillis: 2000,
        maxQueueSize: 8192,
        maxExportBatchSize: 8192,
      },
    });
  });

  it.each([
    ["OTEL_EXPORTER_OTLP_ENDPOINT", "collector:4318", "http:// or https://"],
    [
      "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT",
      "grpc://c:4317",
      "http:// or https://",
    ],
    ["OTEL_TRACES_SAMPLER", "jaeger_remote", "must be one of always_on"],
    ["OTEL_TRACES_SAMPLER_ARG", "1.5", "from 0 to 1"],
    ["OTEL_TRACES_SAMPLER_ARG", "10%", "from 0 to 1"],
    ["OTEL_BSP_SCHEDULE_DELAY", "5s", "whole number, at least 0"],
    ["OTEL_BSP_EXPORT_TIMEOUT", "-1", "whole number, at least 0"],
    ["OTEL_BSP_MAX_QUEUE_SIZE", "-1", "whole number, at least 1"],
    ["OTEL_BSP_MAX_EXPORT_BATCH_SIZE", "1e3", "whole number, at least 1"],
  ])("refuses %s=%s", (name, value, words) => {
    const parsed = z.object(SERVER_ENV_SHAPE).safeParse({ [name]: value });
    expect(parsed.success).toBe(false);
    expect(parsed.error?.issues[0]?.message).toContain(words);
  });

  it("takes an export timeout of 0 as no limit, as the specification says", () => {
    expect(
      tracingSettings(
        fields({
          OTEL_EXPORTER_OTLP_ENDPOINT: "http://collector:4318",
          OTEL_BSP_EXPORT_TIMEOUT: "0",
        }),
        "vics-service",
      )?.batch?.exportTimeoutMillis,
    ).toBe(2_147_483_647);
  });

  it("refuses a batch larger than the queue it is taken from, as the specification says", () => {
    expect(
      spanBatchOverQueue({
        OTEL_BSP_MAX_QUEUE_SIZE: "256",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "512",
      }),
    ).toEqual([
      "OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must be at most OTEL_BSP_MAX_QUEUE_SIZE (512 over 256): a batch is taken from the queue",
    ]);
    // Against the other's default, each said so, and equal is allowed.
    expect(spanBatchOverQueue({ OTEL_BSP_MAX_QUEUE_SIZE: "100" })).toEqual([
      "OTEL_BSP_MAX_QUEUE_SIZE: 100 is below the default batch of 512 spans, which is taken from the queue: set OTEL_BSP_MAX_EXPORT_BATCH_SIZE too, at most 100",
    ]);
    expect(
      spanBatchOverQueue({ OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "4096" }),
    ).toEqual([
      "OTEL_BSP_MAX_EXPORT_BATCH_SIZE: must be at most OTEL_BSP_MAX_QUEUE_SIZE (4096 over the default 2048): a batch is taken from the queue",
    ]);
    expect(
      spanBatchOverQueue({
        OTEL_BSP_MAX_QUEUE_SIZE: "512",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "512",
      }),
    ).toEqual([]);
    // A value its own field refuses is that field's problem only.
    expect(
      spanBatchOverQueue({
        OTEL_BSP_MAX_QUEUE_SIZE: "0",
        OTEL_BSP_MAX_EXPORT_BATCH_SIZE: "512",
      }),
    ).toEqual([]);
  });
});

describe("W3C traceparent", () => {
  it.each([
    VALID,
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-00",
    // Zeros are no fault, only ids all of zeros.
    "00-00000000000000000000000000000001-0000000000000001-00",
    // A later version may carry more after its four fields.
    "01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more",
  ])("takes %s", (value) => expect(passedOnTraceparent(value)).toBeDefined());

  it.each([
    "",
    "00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7",
    "00-4BF92F3577B34DA6A3CE929D0E0E4736-00F067AA0BA902B7-01",
    `00-${"0".repeat(32)}-00f067aa0ba902b7-01`,
    `00-4bf92f3577b34da6a3ce929d0e0e4736-${"0".repeat(16)}-01`,
    "ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01",
    `${VALID}-more`,
  ])("refuses %j", (value) =>
    expect(passedOnTraceparent(value)).toBeUndefined(),
  );
});

describe("with tracing off", () => {
  it("starts nothing, and hands back the fetch and the store as they are", async () => {
    const tracing = await startTracing(undefined, { logger: silentLogger });
    const fetch = (_request: Request) => new Response("ok");
    const store = { find: async () => 1 };
    expect(tracing.traceRequests(fetch)).toBe(fetch);
    expect(tracing.traceCalls(store, "sqlite")).toBe(store);
    await tracing.close();
  });

  it("passes a caller's valid traceparent on and drops a malformed one; ending a call does nothing", () => {
    const sent = (traceparent?: string) =>
      startClientCall(
        "GET",
        "http://service",
        "/v1/x",
        new Request("http://proxy/api/v1/x", {
          headers: traceparent === undefined ? {} : { traceparent },
        }),
      );
    const passed = sent(VALID);
    expect(passed.traceparent).toBe(VALID);
    passed.end(200);
    expect(sent("00-AB12CDE").traceparent).toBeUndefined();
    expect(sent().traceparent).toBeUndefined();
    // A later version's is passed on as version 00 says it, what follows its fields dropped.
    expect(
      sent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01-more")
        .traceparent,
    ).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    // With nothing after its fields too: version 00 is what this server speaks.
    expect(
      sent("01-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01")
        .traceparent,
    ).toBe("00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01");
    // No span to name: nothing is thrown.
    expect(() => nameServerSpan("GET", "/v1/x")).not.toThrow();
  });
});
