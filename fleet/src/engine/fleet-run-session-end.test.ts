// A fleet run whose user's sign-in session ends part-way (staff sessions: decision 033): the proxy refuses the
// next requests with 401 SIGN_IN_REQUIRED before asking the service. The run pauses, as for
// the user's own pause; once they sign in again it goes on, and every vehicle is answered once.
import { describe, expect, it, vi } from "vitest";
import type { AccessLost } from "./request-failure.ts";
import {
  delay,
  fakeUpstream,
  type UpstreamCall,
} from "../testing/fake-upstream.ts";
import { problemResponse } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

/** An upstream whose session ends at call `endsAt`: every request from then on is refused. */
function sessionEndingAt(endsAt: number, clock: ReturnType<typeof fakeClock>) {
  let signedIn = true;
  const refused: UpstreamCall[] = [];
  const upstream = fakeUpstream({
    clock,
    script: (call) => {
      if (call.number === endsAt) signedIn = false;
      if (signedIn) return undefined;
      refused.push(call);
      return problemResponse(401, "SIGN_IN_REQUIRED");
    },
  });
  /** Requests the service answered (the proxy's refusals never reached it), per registration. */
  const answered = (registration: string) =>
    upstream.requestsFor(registration) -
    refused.filter((call) => call.registrations.includes(registration)).length;
  return {
    upstream,
    refused,
    answered,
    signIn: () => {
      signedIn = true;
    },
  };
}

describe("a fleet run when the user's session ends", () => {
  it("pauses at the 401, then after sign-in asks every vehicle exactly once, with every result", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(10);
    const session = sessionEndingAt(3, clock);
    const lost: AccessLost[] = [];
    const engine = startEngine({
      client: session.upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
      onAccessLost: (why) => lost.push(why),
    });

    await vi.waitFor(() => expect(lost).toEqual(["sign-in"]));
    expect(engine.progress.at(-1)).toMatchObject({ phase: "paused", done: 4 });
    // Paused: nothing more goes out while signed out, and nothing is given up.
    await delay(20);
    expect(session.upstream.calls).toHaveLength(3);
    expect(engine.batches.flat()).toHaveLength(4);

    session.signIn();
    engine.run.resume();
    await expect(engine.end).resolves.toEqual({ status: "finished" });

    for (const registration of registrations)
      expect(session.answered(registration)).toBe(1);
    // The refused chunk went again as it was (the same vehicles, so the same Idempotency-Key).
    expect(session.refused.map((call) => call.registrations)).toEqual([
      registrations.slice(4, 6),
    ]);
    expect(session.upstream.calls[3]?.registrations).toEqual(
      registrations.slice(4, 6),
    );
    expectOneOutcomeEach(registrations, engine.batches);
    const results = engine.results();
    expect(
      registrations.map(
        (registration) => results.get(registration)?.insurance.status,
      ),
    ).toEqual(registrations.map(() => "insured"));
  });

  it("keeps the answers to requests already in flight, and re-sends every refused one", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(24);
    const session = sessionEndingAt(2, clock);
    const lost: AccessLost[] = [];
    const engine = startEngine({
      client: session.upstream.client,
      registrations,
      checkCompliance: true,
      tuning: quickTuning(clock, { chunkSize: 3, concurrency: 3 }),
      onAccessLost: (why) => lost.push(why),
    });

    await vi.waitFor(() => expect(lost.length).toBeGreaterThan(0));
    await vi.waitFor(() =>
      expect(engine.progress.at(-1)?.phase).toBe("paused"),
    );
    await delay(20);
    const sentWhilePaused = session.upstream.calls.length;
    await delay(20);
    expect(session.upstream.calls).toHaveLength(sentWhilePaused);

    session.signIn();
    engine.run.resume();
    await expect(engine.end).resolves.toEqual({ status: "finished" });
    for (const registration of registrations)
      expect(session.answered(registration)).toBe(1);
    expectOneOutcomeEach(registrations, engine.batches, true);
    expect(
      [...engine.results().values()].filter(
        (result) => result.insurance.status === "not-checked",
      ),
    ).toEqual([]);
  });

  it("pauses the same way when the user's role no longer allows fleet checks (403 ROLE_REQUIRED)", async () => {
    const clock = fakeClock();
    const registrations = registrationsNumbered(6);
    let allowed = true;
    const upstream = fakeUpstream({
      clock,
      script: (call) => {
        if (call.number === 2) allowed = false;
        return allowed ? undefined : problemResponse(403, "ROLE_REQUIRED");
      },
    });
    const lost: AccessLost[] = [];
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock, { chunkSize: 2, concurrency: 1 }),
      onAccessLost: (why) => lost.push(why),
    });
    await vi.waitFor(() => expect(lost).toEqual(["role"]));
    expect(engine.progress.at(-1)?.phase).toBe("paused");
    // Nothing ends "not checked": the vehicles wait for a role that allows them.
    expect(engine.batches.flat().map((result) => result.registration)).toEqual(
      registrations.slice(0, 2),
    );
    engine.run.cancel();
    await expect(engine.end).resolves.toEqual({ status: "cancelled" });
  });
});
