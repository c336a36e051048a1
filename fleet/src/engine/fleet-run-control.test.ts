import { describe, expect, it, vi } from "vitest";
import { delay, fakeUpstream } from "../testing/fake-upstream.ts";
import { problemResponse, rateLimitHeaders } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

const registrations = registrationsNumbered(10);

describe("pausing, resuming and cancelling a fleet run", () => {
  it("pause stops sending but keeps what is in flight; resume goes on to the end", async () => {
    const clock = fakeClock();
    let releaseFirst: () => void = () => undefined;
    const firstHeld = new Promise<void>((resolve) => (releaseFirst = resolve));
    const upstream = fakeUpstream({
      clock,
      script: async (call) => {
        if (call.number === 1) await firstHeld;
        return undefined;
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
    });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(1));

    engine.run.pause();
    releaseFirst();
    await vi.waitFor(() => expect(engine.batches).toHaveLength(1));
    expect(engine.progress.at(-1)).toMatchObject({ phase: "paused", done: 2 });
    // Paused: the answered chunk was kept, and nothing more went out.
    await delay(20);
    expect(upstream.calls).toHaveLength(1);

    engine.run.resume();
    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toHaveLength(5);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("abandon (a closed tab) aborts the requests in flight, writes nothing for them, and ends 'cancelled'", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: async (call) => {
        if (call.number > 1) await delay("infinite");
        return undefined;
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 2 }),
    });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(3));
    await vi.waitFor(() => expect(engine.batches).toHaveLength(1));

    engine.run.abandon();
    await expect(engine.end).resolves.toEqual({ status: "cancelled" });
    expect(engine.batches.flat().map((result) => result.registration)).toEqual([
      "FL00001",
      "FL00002",
    ]);
    expect(upstream.calls).toHaveLength(3);
    expect(engine.progress.at(-1)).toMatchObject({
      phase: "cancelled",
      done: 2,
      total: 10,
    });
  });

  it("cancel gives the requests in flight a moment, then aborts those still unanswered and ends 'cancelled'", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: async (call) => {
        if (call.number > 1) await delay("infinite");
        return undefined;
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, {
        chunkSize: 2,
        concurrency: 2,
        stopGraceMs: 10,
      }),
    });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(3));
    await vi.waitFor(() => expect(engine.batches).toHaveLength(1));

    engine.run.cancel();
    await expect(engine.end).resolves.toEqual({ status: "cancelled" });
    expect(engine.batches.flat().map((result) => result.registration)).toEqual([
      "FL00001",
      "FL00002",
    ]);
    expect(upstream.calls).toHaveLength(3);
    expect(engine.progress.at(-1)).toMatchObject({
      phase: "cancelled",
      done: 2,
      total: 10,
    });
  });

  it("cancel ends a wait for the rate limit at once", async () => {
    const clock = fakeClock({ holdFrom: 10_000 });
    const upstream = fakeUpstream({
      clock,
      script: () =>
        problemResponse(429, "RATE_LIMITED", {
          ...rateLimitHeaders(0),
          "Retry-After": "60",
        }),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });
    await vi.waitFor(() =>
      expect(engine.progress.at(-1)).toMatchObject({ phase: "waiting" }),
    );
    // The chunk and its halves, sent at once to learn that the window is spent.
    expect(upstream.calls).toHaveLength(3);

    engine.run.cancel();
    await expect(engine.end).resolves.toEqual({ status: "cancelled" });
    expect(upstream.calls).toHaveLength(3);
    expect(engine.batches).toEqual([]);
  });

  it("pause during a wait shows 'paused', and resume waits out what is left", async () => {
    const clock = fakeClock({ holdFrom: 10_000 });
    const start = clock.now();
    // A window really spent: the chunk and its halves are refused until it resets.
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.at < start + 60_000
          ? problemResponse(429, "RATE_LIMITED", {
              ...rateLimitHeaders(0),
              "Retry-After": "60",
            })
          : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });
    await vi.waitFor(() =>
      expect(engine.progress.at(-1)).toMatchObject({ phase: "waiting" }),
    );

    engine.run.pause();
    await vi.waitFor(() =>
      expect(engine.progress.at(-1)).toMatchObject({ phase: "paused" }),
    );
    engine.run.resume();
    await vi.waitFor(() =>
      expect(engine.progress.at(-1)).toMatchObject({ phase: "waiting" }),
    );
    clock.release();
    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("fails the run when saving results fails, instead of losing them silently", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({ clock });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
      onResults: () => Promise.reject(new Error("QuotaExceededError")),
    });

    await expect(engine.end).rejects.toThrow("QuotaExceededError");
    expect(engine.batches).toEqual([]);
  });
});
