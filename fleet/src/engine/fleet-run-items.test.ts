import { describe, expect, it } from "vitest";
import { BULK_ERRORS } from "@vics/shared";
import { fakeUpstream } from "../testing/fake-upstream.ts";
import { bulkBody, policyFixture, VEHICLE } from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  notCheckedReasons,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

const registrations = registrationsNumbered(5);

const insured = (registration: string) => ({
  registration,
  insured: true,
  policy: policyFixture(),
  vehicle: VEHICLE,
});

describe("a fleet run and the items of a bulk answer", () => {
  it("retries only the items 'Temporarily unavailable', as a chunk of their own", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.number === 1
          ? Response.json(
              bulkBody(
                call.registrations.map((registration) =>
                  registration === "FL00002" || registration === "FL00004"
                    ? {
                        registration,
                        insured: false,
                        error: BULK_ERRORS.unavailable,
                      }
                    : insured(registration),
                ),
              ),
            )
          : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(upstream.calls.map((call) => call.registrations)).toEqual([
      registrations,
      ["FL00002", "FL00004"],
    ]);
    expect(notCheckedReasons(engine.results()).size).toBe(0);
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("ends an item that stays 'Temporarily unavailable' (ER19ERR) 'not checked' after maxAttempts", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        Response.json(
          bulkBody(
            call.registrations.map((registration) =>
              registration === "ER19ERR"
                ? {
                    registration,
                    insured: false,
                    error: BULK_ERRORS.unavailable,
                  }
                : insured(registration),
            ),
          ),
        ),
    });
    const withPoison = [...registrations, "ER19ERR"];
    const engine = startEngine({
      client: upstream.client,
      registrations: withPoison,
      tuning: quickTuning(clock, { maxAttempts: 3 }),
    });

    await engine.end;
    expect(upstream.requestsFor("ER19ERR")).toBe(3);
    expect(upstream.requestsFor("FL00001")).toBe(1);
    expect(notCheckedReasons(engine.results())).toEqual(
      new Map([
        [
          "ER19ERR",
          "The vehicle service was temporarily unavailable for this vehicle, 3 tries",
        ],
      ]),
    );
    expectOneOutcomeEach(withPoison, engine.batches);
  });

  it("keeps an item error it does not know as the row's reason, without retrying", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        Response.json(
          bulkBody(
            call.registrations.map((registration) => ({
              registration,
              insured: false,
              error: "Vehicle exported",
            })),
          ),
        ),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(upstream.calls).toHaveLength(1);
    expect(new Set(notCheckedReasons(engine.results()).values())).toEqual(
      new Set(["Vehicle exported"]),
    );
    expectOneOutcomeEach(registrations, engine.batches);
  });

  it("maps 'Invalid registration format' items to invalid", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        Response.json(
          bulkBody(
            call.registrations.map((registration) => ({
              registration,
              insured: false,
              error: BULK_ERRORS.invalid,
            })),
          ),
        ),
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(
      [...engine.results().values()].map((result) => result.insurance),
    ).toEqual(registrations.map(() => ({ status: "invalid" })));
  });
});
