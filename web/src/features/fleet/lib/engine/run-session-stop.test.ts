import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { apiFleetClient } from "../../api/fleet-client.ts";
import { startRunSession } from "./run-session.ts";
import { fakeUpstream } from "../../testing/upstream.ts";
import { savedResults, savedRun, storeWith } from "../../testing/session.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
} from "../../testing/engine-run.ts";

beforeEach(() => {
  globalThis.indexedDB = new IDBFactory();
});

describe("stopping a run and resuming it", () => {
  it("keeps the answers to the requests already sent, so resuming asks for each vehicle once", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(40);
    let letAnswer: () => void = () => undefined;
    const answersHeld = new Promise<void>((resolve) => (letAnswer = resolve));
    const upstream = fakeUpstream({
      clock,
      // The first session's second and third requests are in flight when the user stops.
      script: async (call) => {
        if (call.number === 2 || call.number === 3) await answersHeld;
        return undefined;
      },
    });
    const tuning = quickTuning(clock, { chunkSize: 5, concurrency: 2 });
    const store = await storeWith(savedRun(registrations));
    const first = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      tuning,
    });
    await vi.waitFor(() => expect(upstream.calls).toHaveLength(3));

    first.cancel();
    letAnswer();
    await expect(first.ended).resolves.toBe("cancelled");
    const resumed = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      tuning,
    });
    await expect(resumed.ended).resolves.toBe("finished");

    // 40 vehicles in chunks of 5: eight requests in all, none of them asked again.
    expect(upstream.calls).toHaveLength(8);
    for (const registration of registrations)
      expect(upstream.requestsFor(registration)).toBe(1);
    expectOneOutcomeEach(registrations, await savedResults(store));
  });
});
