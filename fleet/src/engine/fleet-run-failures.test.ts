import { describe, expect, it } from "vitest";
import { delay, fakeUpstream } from "../testing/fake-upstream.ts";
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

/** The first `count` calls get `failure`, the rest the good answer. */
const failFirst =
  (count: number, failure: () => Response | Promise<Response>) =>
  (call: { number: number }) => (call.number <= count ? failure() : undefined);

function cutAnswer(): Response {
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      controller.enqueue(
        new TextEncoder().encode('{"results":[{"registration":'),
      );
      setTimeout(() => controller.error(new Error("connection reset")), 5);
    },
  });
  return new Response(body, {
    status: 200,
    headers: { "Content-Type": "application/json", "Content-Length": "4000" },
  });
}

describe("a fleet run when the service fails", () => {
  it("retries 500s with exponential backoff and full jitter, then takes the answer", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: failFirst(2, () => problemResponse(500, "INTERNAL")),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { random: () => 0.5, baseDelayMs: 1000 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(3);
    // Half (random 0.5) of 1 s, then of 2 s.
    expect(clock.slept).toEqual([500, 1000]);
    expect(engine.progress).toContainEqual(
      expect.objectContaining({
        phase: "waiting",
        message: "Waiting 1 s before trying again",
      }),
    );
    expect(notCheckedReasons(engine.results()).size).toBe(0);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("caps the backoff at maxDelayMs", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: failFirst(3, () => problemResponse(503, "INTERNAL")),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, {
        random: () => 0.999,
        baseDelayMs: 1000,
        maxDelayMs: 1500,
      }),
    });

    await engine.end;
    expect(clock.slept).toEqual([999, 1498, 1498]);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("after maxAttempts of 502 and 504 ends those rows 'not checked' with the reason, and the run finished", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.number % 2 === 1
          ? problemResponse(502, "BAD_GATEWAY")
          : problemResponse(504, "GATEWAY_TIMEOUT"),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { maxAttempts: 4 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(4);
    const reasons = notCheckedReasons(engine.results());
    expect([...reasons.keys()]).toEqual(registrations);
    expect(new Set(reasons.values())).toEqual(
      new Set(["The vehicle service did not answer after 4 tries"]),
    );
    expect(engine.progress.at(-1)).toMatchObject({
      phase: "finished",
      done: 5,
      notChecked: 5,
    });
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("retries network failures, and names them when they never stop", async () => {
    const clock = fakeClock();
    const flaky = fakeUpstream({
      clock,
      script: failFirst(1, () => Response.error()),
    });
    const recovered = startEngine({
      client: flaky.client,
      registrations,
      tuning: quickTuning(clock),
    });
    await recovered.end;
    expect(flaky.calls).toHaveLength(2);
    expect(notCheckedReasons(recovered.results()).size).toBe(0);
    expectOneOutcomeEach(registrations, recovered.batches);

    const upstream = fakeUpstream({ clock, script: () => Response.error() });
    const lost = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { maxAttempts: 3 }),
    });
    await lost.end;
    expect(new Set(notCheckedReasons(lost.results()).values())).toEqual(
      new Set(["VICS could not reach the vehicle service after 3 tries"]),
    );
    expectOneOutcomeEach(registrations, lost.batches);
  });

  it("retries an answer cut off by a connection reset in the middle of its body", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({ clock, script: failFirst(2, cutAnswer) });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(3);
    expect(notCheckedReasons(engine.results()).size).toBe(0);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("aborts a request that does not answer within requestTimeoutMs, and retries it", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: failFirst(1, async () => {
        await delay("infinite");
        return problemResponse(500, "INTERNAL");
      }),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { requestTimeoutMs: 30 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(2);
    expect(notCheckedReasons(engine.results()).size).toBe(0);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("names a service that never answers in time", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: async () => {
        await delay("infinite");
        return problemResponse(500, "INTERNAL");
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { requestTimeoutMs: 20, maxAttempts: 2 }),
    });

    await engine.end;
    expect(new Set(notCheckedReasons(engine.results()).values())).toEqual(
      new Set(["The vehicle service took too long to answer, 2 tries"]),
    );
    expectOneOutcomeEach(registrations, engine.batches);
  });
});
