// The engine does not trust an answer that breaks the contract: it asks again, and ends the
// rows "not checked" if the answers stay unreadable. The web keeps a copy of this suite through
// its own API client (web/src/features/fleet/lib/engine/fleet-run-contract.test.ts), the seam
// between the engine and the browser's requests.
import { describe, expect, it } from "vitest";
import { fakeUpstream, type UpstreamCall } from "../testing/fake-upstream.ts";
import { bulkBody, policyFixture, VEHICLE } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

const registrations = registrationsNumbered(5);

const insured = (registration: string) => ({
  registration,
  insured: true,
  policy: policyFixture(),
  vehicle: VEHICLE,
});

/** Answers that break the contract, each as the first call's answer. */
const brokenAnswers: [string, (call: UpstreamCall) => Response][] = [
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
    (call) => Response.json(bulkBody(call.registrations.slice(1).map(insured))),
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

describe("a fleet run that does not trust the answer blindly", () => {
  it.each(brokenAnswers)("asks again after %s", async (_, broken) => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) => (call.number === 1 ? broken(call) : undefined),
    });
    const engine = startEngine({
      client: upstream.client,
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
  });

  it("ends the rows 'not checked' when the answers stay unreadable", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: () => new Response("<html>", { status: 200 }),
    });
    const engine = startEngine({
      client: upstream.client,
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
