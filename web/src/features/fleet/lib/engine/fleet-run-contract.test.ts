// The one engine suite left in the web (issue 36): the engine through the web's API client
// (apiFleetClient) and msw, the path a user's run takes. An answer that breaks the contract
// must reach the engine as the same failure as from fleet's own HTTP client; the engine's
// scenarios, this one included, run in fleet/src/engine/ against fleet's fake upstream.
import { describe, expect, it } from "vitest";
import { HttpResponse } from "msw";
import { policyFixture } from "../../../../test/fixtures.ts";
import { fakeUpstream, type UpstreamCall } from "../../testing/upstream.ts";
import { bulkBody, VEHICLE } from "../../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../../testing/engine-run.ts";

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
      HttpResponse.json({
        ...bulkBody(call.registrations.map(insured)),
        successful: 1,
      }),
  ],
  [
    "one result missing (counts consistent)",
    (call) =>
      HttpResponse.json(bulkBody(call.registrations.slice(1).map(insured))),
  ],
  [
    "results in the wrong order",
    (call) =>
      HttpResponse.json(
        bulkBody([...call.registrations].reverse().map(insured)),
      ),
  ],
  [
    "an insured item without its policy",
    (call) =>
      HttpResponse.json(
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
    () => new HttpResponse('{"results": [', { status: 200 }),
  ],
  [
    "an HTML page",
    () =>
      new HttpResponse("<!doctype html><title>Sign in</title>", {
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
    const engine = startEngine({ registrations, tuning: quickTuning(clock) });

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
    fakeUpstream({
      clock,
      script: () => new HttpResponse("<html>", { status: 200 }),
    });
    const engine = startEngine({
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
