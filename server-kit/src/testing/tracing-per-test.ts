/**
 * `@vics/server-kit/testing/tracing-per-test`: tracing started by a test to a receiver of its
 * own, both closed after each test (a second close does nothing), with the variables the test
 * stubbed unstubbed: so a test that fails before its own close() leaves the next a clean start.
 * Test support, never imported by an app.
 */
import { afterEach, expect, vi } from "vitest";
import { type MemoryLogger, memoryLogger } from "./memory-logger.ts";
import { type OtlpReceiver, startOtlpReceiver } from "./otlp-receiver.ts";
import { startTracing, type Tracing } from "../tracing.ts";
import type {
  SpanBatchSettings,
  TracingSettings,
} from "../tracing-settings.ts";

export interface TestTracing {
  tracing: Tracing;
  collector: OtlpReceiver;
  /** What the tracing logged, at warn and above. */
  logger: MemoryLogger;
  /** Sends `count` requests, one after another, each a span, to an app answering 200 "ok". */
  requests(count: number): Promise<void>;
}

/**
 * Registers the afterEach; the function it returns starts tracing every request (always_on,
 * unless `sampler` says) to a new receiver answering `status` and `body`, as the service, or
 * at the edge, its spans batched as `batch` says (unset: the SDK's defaults).
 */
export function tracingPerTest() {
  let started: TestTracing | undefined;
  afterEach(async () => {
    vi.unstubAllEnvs();
    await started?.tracing.close();
    await started?.collector.close();
    started = undefined;
  });
  return async ({
    status,
    body,
    edge = false,
    sampler = "always_on",
    batch,
  }: {
    status?: number | "never";
    body?: object;
    edge?: boolean;
    sampler?: TracingSettings["sampler"];
    batch?: SpanBatchSettings;
  } = {}): Promise<TestTracing> => {
    const collector = await startOtlpReceiver({ status, body });
    const logger = memoryLogger("warn");
    const tracing = await startTracing(
      {
        tracesUrl: collector.url,
        serviceName: edge ? "vics-proxy" : "vics-service",
        sampler,
        ratio: 1,
        batch,
      },
      { edge, logger },
    );
    const fetch = tracing.traceRequests(
      (_request: Request) => new Response("ok"),
    );
    const requests = async (count: number) => {
      for (let request = 0; request < count; request++)
        expect((await fetch(new Request("http://127.0.0.1/v1/x"))).status).toBe(
          200,
        );
    };
    started = { tracing, collector, logger, requests };
    return started;
  };
}
