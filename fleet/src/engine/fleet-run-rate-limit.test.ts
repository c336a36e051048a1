import { describe, expect, it, vi } from "vitest";
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

const tooMany = (headers: Record<string, string>) =>
  problemResponse(429, "RATE_LIMITED", headers);

describe("a fleet run and the rate limit", () => {
  it("on a 429 that the chunk's halves meet too, waits Retry-After, says so, then sends the halves again", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const registrations = registrationsNumbered(6);
    // A window really spent: everything is refused for 23 s.
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.at < start + 23_000
          ? tooMany({ ...rateLimitHeaders(0, 120, 40), "Retry-After": "23" })
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
        waitUntil: start + 23_000,
        message: "Waiting 23 s for the rate limit",
      }),
    );
    // The refused chunk's halves go at once, to learn whether the window is spent: both are
    // refused, so it is, and nothing more goes until Retry-After has passed.
    const early = upstream.calls.filter((call) => call.at < start + 23_000);
    expect(early).toHaveLength(3);
    const again = upstream.calls.filter((call) => call.at >= start + 23_000);
    // The halves go together, so either may reach the service first.
    expect(again.map((call) => call.registrations)).toHaveLength(2);
    expect(again.map((call) => call.registrations)).toEqual(
      expect.arrayContaining([
        registrations.slice(0, 3),
        registrations.slice(3),
      ]),
    );
    expect(notCheckedReasons(engine.results()).size).toBe(0);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("without Retry-After waits for the window's reset", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.number === 1 ? tooMany(rateLimitHeaders(0, 120, 17)) : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations: ["AB12CDE"],
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(engine.progress).toContainEqual(
      expect.objectContaining({
        phase: "waiting",
        message: "Waiting 17 s for the rate limit",
      }),
    );
    expect(upstream.calls[1]?.at).toBe(start + 17_000);
    expectOneOutcomeEach(["AB12CDE"], engine.batches);
  });

  it("without Retry-After or rate-limit headers waits 60 s", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const upstream = fakeUpstream({
      clock,
      script: (call) => (call.number === 1 ? tooMany({}) : undefined),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations: ["AB12CDE"],
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(engine.progress).toContainEqual(
      expect.objectContaining({ phase: "waiting", waitUntil: start + 60_000 }),
    );
    expect(upstream.calls[1]?.at).toBe(start + 60_000);
    expectOneOutcomeEach(["AB12CDE"], engine.batches);
  });

  it("does not send the next chunk before the reset when Remaining is spent", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const registrations = registrationsNumbered(6);
    // The first answer leaves one request (Remaining 1, Reset 30): the second chunk may go at
    // once; its answer (Remaining 0) makes the third wait for the reset.
    const upstream = fakeUpstream({
      clock,
      script(call) {
        if (call.number <= 2)
          call.rateLimitHeaders = rateLimitHeaders(2 - call.number, 10, 30);
        return undefined;
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
    });

    await engine.end;
    expect(upstream.calls.map((call) => call.at - start)).toEqual([
      0, 0, 30_000,
    ]);
    expect(engine.progress).toContainEqual(
      expect.objectContaining({
        phase: "waiting",
        message: "Waiting 30 s for the rate limit",
      }),
    );
    expect(upstream.throttled).toBe(0);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("keeps within a real fixed window with several requests in flight: no 429 at all", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(24);
    const upstream = fakeUpstream({
      clock,
      window: { limit: 4, seconds: 30 },
      latencyMs: 2,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 3 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.throttled).toBe(0);
    expect(upstream.calls).toHaveLength(12);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("isolates a registration that is always refused (ER19THR) among 1,000 others, in few requests", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(1000);
    registrations.splice(437, 0, "ER19THR");
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.registrations.includes("ER19THR")
          ? tooMany({ ...rateLimitHeaders(0, 1200, 60), "Retry-After": "60" })
          : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(notCheckedReasons(engine.results())).toEqual(
      new Map([["ER19THR", REFUSED_ALONE_REASON]]),
    );
    expect(upstream.calls.length).toBeLessThan(40);
    expect(upstream.requestsFor("ER19THR")).toBe(upstream.throttled);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("lifts a 429's wait when a later answer shows requests remaining in the window", async () => {
    // Sleeps of 10 s or more are held: only a contradicting answer can end this one early.
    const clock = fakeClock({ holdFrom: 10_000 });
    const start = clock.now();
    // One vehicle a request: a lone vehicle's 429 is believed at once (no halves to ask).
    const registrations = registrationsNumbered(2);
    let answerLate: () => void = () => undefined;
    const late = new Promise<void>((resolve) => (answerLate = resolve));
    const upstream = fakeUpstream({
      clock,
      async script(call) {
        if (call.number === 1)
          return tooMany({
            ...rateLimitHeaders(0, 120, 60),
            "Retry-After": "60",
          });
        // The second vehicle is answered (Remaining 100) only after the first one's 429 has arrived.
        if (call.number === 2) await late;
        call.rateLimitHeaders = rateLimitHeaders(100, 120, 60);
        return undefined;
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 1, concurrency: 2 }),
    });
    await vi.waitFor(() =>
      expect(engine.progress.at(-1)).toMatchObject({ phase: "waiting" }),
    );
    answerLate();

    try {
      // The refused vehicle goes again without the 60 s having passed.
      await vi.waitFor(() => expect(upstream.calls).toHaveLength(3));
    } finally {
      clock.release();
    }
    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls.map((call) => call.at - start)).toEqual([0, 0, 0]);
    expect(clock.slept).not.toContain(60_000);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("believes a 429 from a window another user of the shared key used up, though its last reading had room", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const registrations = registrationsNumbered(3000);
    // The first answer shows plenty left; then someone else empties the window for 30 s.
    const upstream = fakeUpstream({
      clock,
      script: (call) => {
        if (call.number === 1) {
          call.rateLimitHeaders = rateLimitHeaders(50_000, 100_000, 30);
          return undefined;
        }
        return clock.now() < start + 30_000
          ? tooMany({
              ...rateLimitHeaders(0, 100_000, 30),
              "Retry-After": "30",
            })
          : undefined;
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    // It waited the window out instead of hammering the service: no storm of refusals (the
    // two refused chunks, and the halves of one sent to learn the window is spent), and
    // nothing given up as "not checked".
    expect(engine.progress).toContainEqual(
      expect.objectContaining({ phase: "waiting", waitUntil: start + 30_000 }),
    );
    const refusedEarly = upstream.calls.filter(
      (call) => call.at < start + 30_000,
    );
    expect(refusedEarly.length).toBeLessThanOrEqual(5);
    expect(upstream.throttled).toBeLessThanOrEqual(4);
    expect(notCheckedReasons(engine.results())).toEqual(new Map());
    expectOneOutcomeEach(registrations, engine.batches);
  });
});
