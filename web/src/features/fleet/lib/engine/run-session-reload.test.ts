import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { delay } from "msw";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { apiFleetClient } from "../../api/fleet-client.ts";
import { openRunStore } from "../store/run-store.ts";
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

describe("a run session after a reload", () => {
  it.each([false, true])(
    "resumes after a reload mid-run without asking again for anything answered (compliance: %s)",
    async (checkCompliance) => {
      const clock = fakeClock();
      const registrations = registrationsNumbered(40);
      let tabOpen = true;
      const upstream = fakeUpstream({
        clock,
        // While the first tab is open, its fourth request and later never answer: they are in
        // flight when the tab closes.
        script: async (call) => {
          if (tabOpen && call.number >= 4) await delay("infinite");
          return undefined;
        },
      });
      const tuning = quickTuning(clock, { chunkSize: 5, concurrency: 2 });
      const firstStore = await storeWith(
        savedRun(registrations, checkCompliance),
      );
      const first = await startRunSession({
        store: firstStore,
        client: apiFleetClient,
        runId: "run-1",
        tuning,
      });
      await vi.waitFor(() =>
        expect(upstream.calls.length).toBeGreaterThanOrEqual(5),
      );

      first.abandon();
      await first.ended;
      tabOpen = false;
      firstStore.close();
      const secondStore = await openRunStore();
      const before = await secondStore.loadRun("run-1");
      const answeredFirst = [...(before?.results.keys() ?? [])];
      expect(before?.run.status).toBe("running");
      expect(answeredFirst.length).toBeGreaterThan(0);
      expect(answeredFirst.length).toBeLessThan(registrations.length);

      const second = await startRunSession({
        store: secondStore,
        client: apiFleetClient,
        runId: "run-1",
        tuning,
      });
      await expect(second.ended).resolves.toBe("finished");

      for (const registration of answeredFirst) {
        expect({
          registration,
          requests: upstream.requestsFor(registration),
        }).toEqual({
          registration,
          // One request per chunk, with compliance or without (decision 021).
          requests: 1,
        });
      }
      expect(upstream.requestsFor("EX26SON")).toBe(0);
      expectOneOutcomeEach(
        registrations,
        await savedResults(secondStore),
        checkCompliance,
      );
      expect(second.getSnapshot().progress).toMatchObject({
        phase: "finished",
        total: 40,
        done: 40,
      });
      expect((await secondStore.loadRun("run-1"))?.run.status).toBe("finished");
    },
  );
});
