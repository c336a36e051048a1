// A stop while no collector takes the spans held: close() says so and never fails, so a server
// stops as cleanly as it would have (its stop logs the reason). A file of its own: startTracing
// sets the process's tracer.
import { trace } from "@opentelemetry/api";
import { expect, it } from "vitest";
import { freePort } from "@vics/shared/testing/free-port";
import { startTracing } from "./tracing.ts";

it("says why the spans held at the stop were not sent, and does not fail, when no collector listens", async () => {
  const tracing = await startTracing({
    tracesUrl: `http://127.0.0.1:${await freePort()}/v1/traces`,
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
  // Held, not yet sent (a batch waits 5 seconds): the stop sends it, and is refused.
  const { unsent } = await tracing.close();
  expect(unsent).toEqual(expect.any(String));
  expect(unsent).not.toBe("");
}, 60_000);
