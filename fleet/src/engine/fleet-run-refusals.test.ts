import { describe, expect, it } from "vitest";
import { UNAUTHORIZED_REASON } from "./request-failure.ts";
import { fakeUpstream } from "../testing/fake-upstream.ts";
import { problemResponse } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

const registrations = registrationsNumbered(5);

describe("a fleet run when the service refuses", () => {
  it("does not retry a 400: its rows end 'not checked' with the service's words", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: () => problemResponse(400, "MALFORMED_REQUEST"),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(1);
    expect(new Set(notCheckedReasons(engine.results()).values())).toEqual(
      new Set([
        "The vehicle service refused the request: Detail for MALFORMED_REQUEST",
      ]),
    );
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("stops at a 401: every row not yet answered ends 'not checked', the run finished", async () => {
    const clock = fakeClock();
    const many = registrationsNumbered(10);
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.number === 2 ? problemResponse(401, "UNAUTHORIZED") : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations: many,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(2);
    const results = engine.results();
    expect(results.get(many[0] ?? "")?.insurance.status).toBe("insured");
    expect(results.get(many[1] ?? "")?.insurance.status).toBe("insured");
    expect([...notCheckedReasons(results).keys()]).toEqual(many.slice(2));
    expect(new Set(notCheckedReasons(results).values())).toEqual(
      new Set([UNAUTHORIZED_REASON]),
    );
    expectOneOutcomeEach(many, engine.batches);
  });
});
