// OpenTelemetry's exporter reads its own standard variables, beside the ones VICS checks
// (tracing-settings.ts): a collector's token in OTEL_EXPORTER_OTLP_HEADERS is sent with every
// export, and a pair it cannot parse is dropped without a line, as docs/operations.md says.
import { expect, it, vi } from "vitest";
import { tracingPerTest } from "./testing/tracing-per-test.ts";

const traced = tracingPerTest();

/** One request traced to a collector with OTEL_EXPORTER_OTLP_HEADERS set to `headers`. */
async function exportedWith(headers: string) {
  vi.stubEnv("OTEL_EXPORTER_OTLP_HEADERS", headers);
  const { tracing, collector, logger, requests } = await traced();
  await requests(1);
  await tracing.close();
  expect(collector.spans).toHaveLength(1);
  return { sent: collector.headers[0]!, logged: logger.entries };
}

it("sends OTEL_EXPORTER_OTLP_HEADERS's pairs with each export, percent-decoded", async () => {
  const { sent, logged } = await exportedWith(
    "authorization=Bearer%20a-token,x-tenant=vics",
  );
  expect(sent.authorization).toBe("Bearer a-token");
  expect(sent["x-tenant"]).toBe("vics");
  expect(logged).toEqual([]);
});

it("drops a pair it cannot parse without a line, and sends the others", async () => {
  const { sent, logged } = await exportedWith("authorization,x-tenant=vics");
  expect(sent.authorization).toBeUndefined();
  expect(sent["x-tenant"]).toBe("vics");
  expect(logged).toEqual([]);
});
