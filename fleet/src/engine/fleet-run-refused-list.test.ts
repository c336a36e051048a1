import { describe, expect, it } from "vitest";
import { REFUSED_ALONE_REASON } from "./request-failure.ts";
import { fakeUpstream } from "../testing/fake-upstream.ts";
import { problemResponse, rateLimitHeaders } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

/** Waits of this long or more are waits for the rate limit (backoffs are shorter). */
const LIMIT_WAIT_MS = 10_000;

describe("a list the service refuses with 429 while the window has room (the sandbox's ER19THR)", () => {
  it("isolates the refused vehicle without waiting out the 429 at every split", async () => {
    // Long sleeps are held, so a wait that an answer lifts is not counted as waited out; the
    // ones nothing lifts are let go now and then (each then counts in clock.slept).
    const clock = fakeClock({ holdFrom: LIMIT_WAIT_MS });
    const letGo = setInterval(() => clock.release(), 50);
    const registrations = registrationsNumbered(1501);
    registrations.splice(1200, 0, "ER19THR");
    const upstream = fakeUpstream({
      clock,
      // As the service does it: a 429 for the whole list, its headers saying 0 left.
      script: (call) =>
        call.registrations.includes("ER19THR")
          ? problemResponse(429, "RATE_LIMITED", {
              ...rateLimitHeaders(0, 1200, 60),
              "Retry-After": "60",
            })
          : undefined,
      latencyMs: 2,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    const end = engine.end.finally(() => clearInterval(letGo));

    await expect(end).resolves.toEqual({ status: "finished" });
    expect(notCheckedReasons(engine.results())).toEqual(
      new Map([["ER19THR", REFUSED_ALONE_REASON]]),
    );
    expectOneOutcomeEach(registrations, engine.batches);
    // Only the requests carrying ER19THR were refused: the window was never spent.
    expect(upstream.requestsFor("ER19THR")).toBe(upstream.throttled);
    const limitWaits = clock.slept.filter((ms) => ms >= LIMIT_WAIT_MS);
    // Only the lone vehicle's own tries may wait: never a wait per split of the list.
    expect(limitWaits.length).toBeLessThanOrEqual(1);
    // It says what it is doing, as it does it.
    const messages = engine.progress.map((report) => report.message);
    expect(messages).toContain(
      "The service refused a batch of 502 vehicles. Checking whether the rate limit is spent or it refuses one vehicle: 251 at a time",
    );
    expect(messages).toContain(
      "The service refused a batch of 251 vehicles. Finding which vehicle it refuses: 126 at a time",
    );
    expect(messages).toContain(
      "The service refuses ER19 THR. The other vehicles carry on; it is asked once more when the service's wait is over",
    );
    expect(engine.progress).toContainEqual(
      expect.objectContaining({
        phase: "waiting",
        message: "Waiting 60 s to ask about ER19 THR once more",
      }),
    );
  });

  it("still waits out a window that is really spent: every part sent is refused too", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const registrations = registrationsNumbered(1502);
    // Someone else using the shared key has spent the window for the next 60 s.
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.at < start + 60_000
          ? problemResponse(429, "RATE_LIMITED", {
              ...rateLimitHeaders(0, 1200, 60),
              "Retry-After": "60",
            })
          : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(engine.progress).toContainEqual(
      expect.objectContaining({
        phase: "waiting",
        waitUntil: start + 60_000,
        message: "Waiting 60 s for the rate limit",
      }),
    );
    // The two chunks and the halves of one (sent to learn the window is spent): never a storm.
    expect(upstream.throttled).toBeLessThanOrEqual(4);
    expect(notCheckedReasons(engine.results())).toEqual(new Map());
    expectOneOutcomeEach(registrations, engine.batches);
  });
});
