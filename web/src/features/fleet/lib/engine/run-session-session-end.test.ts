import "fake-indexeddb/auto";
import { IDBFactory } from "fake-indexeddb";
import { beforeEach, describe, expect, it, vi } from "vitest";
import { server } from "../../../../testing/server.ts";
import { apiFleetClient } from "../../api/fleet-client.ts";
import { startRunSession } from "./run-session.ts";
import { problemResponse } from "../../testing/answers.ts";
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

/** Each bulk request's Idempotency-Key and registrations, in the order sent. */
function recordKeys() {
  const sent: { key: string | null; registrations: string[] }[] = [];
  const listener = ({ request }: { request: Request }) => {
    if (!request.url.includes("/bulk-")) return;
    void request
      .clone()
      .json()
      .then((body: { registrations: string[] }) =>
        sent.push({
          key: request.headers.get("Idempotency-Key"),
          registrations: body.registrations,
        }),
      );
  };
  server.events.on("request:start", listener);
  return {
    sent,
    stop: () => server.events.removeListener("request:start", listener),
  };
}

describe("a run session when the user's session ends", () => {
  it("saves the run paused and says why; resumed after sign-in, it finishes with each vehicle answered once", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(8);
    let signedIn = true;
    const refused: string[][] = [];
    const upstream = fakeUpstream({
      clock,
      script: (call) => {
        if (call.number === 2) signedIn = false;
        if (signedIn) return undefined;
        refused.push(call.registrations);
        return problemResponse(401, "SIGN_IN_REQUIRED");
      },
    });
    const keys = recordKeys();
    const store = await storeWith(savedRun(registrations));
    const session = await startRunSession({
      store,
      client: apiFleetClient,
      runId: "run-1",
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
    });

    await vi.waitFor(() =>
      expect(session.getSnapshot().accessLost).toBe("sign-in"),
    );
    expect(session.getSnapshot().run.status).toBe("paused");
    await vi.waitFor(async () =>
      expect((await store.loadRun("run-1"))?.run.status).toBe("paused"),
    );

    signedIn = true;
    session.resume();
    expect(session.getSnapshot().accessLost).toBeUndefined();
    await expect(session.ended).resolves.toBe("finished");
    keys.stop();

    for (const registration of registrations) {
      const times = refused.filter((chunk) => chunk.includes(registration));
      expect(upstream.requestsFor(registration) - times.length).toBe(1);
    }
    // The refused chunk and its second sending are one request to the proxy's replay memory.
    const [first, second] = keys.sent.filter(
      (each) => each.registrations.join() === refused[0]?.join(),
    );
    expect(first?.key).toMatch(/^[A-Za-z0-9_-]{8,128}$/);
    expect(second?.key).toBe(first?.key);
    expectOneOutcomeEach(registrations, await savedResults(store));
    expect((await store.loadRun("run-1"))?.run.status).toBe("finished");
  });
});
