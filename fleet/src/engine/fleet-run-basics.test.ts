import { describe, expect, it } from "vitest";
import { BULK_MAX_REGISTRATIONS } from "@vics/shared";
import { fakeUpstream } from "../testing/fake-upstream.ts";
import { VEHICLE } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

describe("a fleet run where everything answers", () => {
  it("answers 5 registrations in one request, each mapped from its own item", async () => {
    const registrations = [
      "AB12CDE",
      "UN51NSD",
      "ER19NFD",
      "LP08SED",
      "MT15EXP",
    ];
    const upstream = fakeUpstream({
      notFound: ["ER19NFD"],
      notInsured: ["UN51NSD", "LP08SED"],
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(fakeClock()),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls.map((call) => call.registrations)).toEqual([
      registrations,
    ]);
    const results = engine.results();
    expect(results.get("AB12CDE")?.insurance).toMatchObject({
      status: "insured",
      vehicle: VEHICLE,
    });
    expect(results.get("UN51NSD")?.insurance).toEqual({
      status: "not-insured",
      lastPolicy: null,
      vehicle: VEHICLE,
    });
    expect(results.get("ER19NFD")?.insurance).toEqual({ status: "not-found" });
    expect(results.get("LP08SED")?.insurance.status).toBe("not-insured");
    expect(results.get("MT15EXP")?.insurance.status).toBe("insured");
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("sends 2,500 registrations in chunks of at most 1,000, in order, never more than `concurrency` at once", async () => {
    const registrations = registrationsNumbered(2500);
    const upstream = fakeUpstream({ latencyMs: 20 });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(fakeClock(), { concurrency: 2 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    const sizes = upstream.calls.map((call) => call.registrations.length);
    expect(sizes).toEqual([1000, 1000, 500]);
    expect(upstream.calls.flatMap((call) => call.registrations)).toEqual(
      registrations,
    );
    expect(upstream.maxInFlight).toBe(2);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("never sends more than the contract's 1,000 in a request, whatever chunk size it is given", async () => {
    const registrations = registrationsNumbered(1500);
    const upstream = fakeUpstream();
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(fakeClock(), { chunkSize: 5000 }),
    });

    await engine.end;
    expect(
      Math.max(...upstream.calls.map((call) => call.registrations.length)),
    ).toBe(BULK_MAX_REGISTRATIONS);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("reports progress with counts, the rate and the time left, and ends finished", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(30);
    const upstream = fakeUpstream({ clock, latencyMs: 5 });
    // Each answer takes ten fake seconds to save, so the rate is measurable on the fake clock.
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 10, concurrency: 1 }),
      onResults: () => clock.sleep(10_000),
    });

    await engine.end;
    const first = engine.progress.find((report) => report.done === 10);
    expect(first).toMatchObject({
      total: 30,
      notChecked: 0,
      ratePerSecond: 1,
      secondsLeft: 20,
    });
    expect(engine.progress.at(-1)).toMatchObject({
      phase: "finished",
      total: 30,
      done: 30,
    });
    expect(engine.progress.at(-1)?.rateLimit).toMatchObject({
      limit: 1200,
      remaining: 1000,
    });
  });

  it("finishes at once with nothing to answer", async () => {
    const upstream = fakeUpstream();
    const engine = startEngine({
      client: upstream.client,
      registrations: [],
      tuning: quickTuning(fakeClock()),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls).toEqual([]);
    expect(engine.progress.at(-1)).toMatchObject({
      phase: "finished",
      total: 0,
      done: 0,
    });
  });
});
