// Test support: the engine's contract with the answers it reads, as one suite that each harness
// runs (issue 36): fleet's own, through its HTTP client (fleet/src/engine/), and the web's,
// through its API client and msw (web/src/features/fleet/lib/engine/), the seam between the
// engine and the browser's requests. The engine does not trust an answer that breaks the
// contract: it asks again, and ends the rows "not checked" if the answers stay unreadable.
import type { Policy } from "@vics/shared";
import { describe, expect, it } from "vitest";
import type { RunTuning } from "../engine/run-tuning.ts";
import { bulkBody, VEHICLE } from "./answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  type EngineRun,
} from "./engine-run.ts";
import type {
  FakeUpstream,
  UpstreamCall,
  UpstreamOptions,
} from "./fake-upstream.ts";

/**
 * Answers that break the contract, for the first call; plain Responses, which msw sends as they
 * are. `policy` is the insured vehicles' policy, as the harness dates it.
 */
export function brokenAnswers(
  policy: () => Policy,
): [string, (call: UpstreamCall) => Response][] {
  const insured = (registration: string) => ({
    registration,
    insured: true,
    policy: policy(),
    vehicle: VEHICLE,
  });
  return [
    [
      "counts that do not add up",
      (call) =>
        Response.json({
          ...bulkBody(call.registrations.map(insured)),
          successful: 1,
        }),
    ],
    [
      "one result missing (counts consistent)",
      (call) =>
        Response.json(bulkBody(call.registrations.slice(1).map(insured))),
    ],
    [
      "results in the wrong order",
      (call) =>
        Response.json(bulkBody([...call.registrations].reverse().map(insured))),
    ],
    [
      "an insured item without its policy",
      (call) =>
        Response.json(
          bulkBody(
            call.registrations.map((registration) => ({
              registration,
              insured: true,
            })),
          ),
        ),
    ],
    [
      "a body that is not JSON",
      () => new Response('{"results": [', { status: 200 }),
    ],
    [
      "an HTML page",
      () =>
        new Response("<!doctype html><title>Sign in</title>", {
          status: 200,
          headers: { "Content-Type": "text/html" },
        }),
    ],
  ];
}

/** How a workspace runs the engine against a fake vehicle service. */
export interface RunHarness {
  /** The policy an insured vehicle has. */
  policy: () => Policy;
  /** The fake vehicle service, reachable the way this harness's engine asks. */
  fakeUpstream(options: UpstreamOptions): FakeUpstream;
  /** The engine, asking `upstream` through this harness's client. */
  startEngine(
    upstream: FakeUpstream,
    options: { registrations: readonly string[]; tuning: Partial<RunTuning> },
  ): EngineRun;
}

export function describeRunContract(harness: RunHarness): void {
  const registrations = registrationsNumbered(5);

  describe("a fleet run that does not trust the answer blindly", () => {
    it.each(brokenAnswers(harness.policy))(
      "asks again after %s",
      async (_, broken) => {
        const clock = fakeClock();
        const upstream = harness.fakeUpstream({
          clock,
          script: (call) => (call.number === 1 ? broken(call) : undefined),
        });
        const engine = harness.startEngine(upstream, {
          registrations,
          tuning: quickTuning(clock),
        });

        await expect(engine.end).resolves.toEqual({ status: "finished" });
        expect(upstream.calls).toHaveLength(2);
        const statuses = [...engine.results().values()].map(
          (result) => result.insurance.status,
        );
        expect(statuses).toEqual(registrations.map(() => "insured"));
        expectOneOutcomeEach(registrations, engine.batches);
      },
    );

    it("ends the rows 'not checked' when the answers stay unreadable", async () => {
      const clock = fakeClock();
      const upstream = harness.fakeUpstream({
        clock,
        script: () => new Response("<html>", { status: 200 }),
      });
      const engine = harness.startEngine(upstream, {
        registrations,
        tuning: quickTuning(clock, { maxAttempts: 2 }),
      });

      await engine.end;
      expect(new Set(notCheckedReasons(engine.results()).values())).toEqual(
        new Set([
          "The vehicle service sent answers VICS could not read, 2 tries",
        ]),
      );
      expectOneOutcomeEach(registrations, engine.batches);
    });
  });
}
