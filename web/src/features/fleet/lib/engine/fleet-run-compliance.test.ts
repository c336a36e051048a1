import { describe, expect, it } from "vitest";
import { fakeUpstream } from "./test-upstream.ts";
import { problemResponse, CHECKS_PASS, VEHICLE } from "./test-answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "./test-run.ts";

const registrations = ["AB12CDE", "MT15EXP", "ER19NFD", "BD19ALL"];
const upstreamFacts = { notFound: ["ER19NFD"], nonCompliant: ["MT15EXP"] };

describe("a fleet run that also checks compliance", () => {
  it("asks bulk insurance and bulk compliance for each chunk, and each result carries both", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({ clock, ...upstreamFacts });
    const engine = startEngine({
      registrations,
      checkCompliance: true,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls.map((call) => call.endpoint).sort()).toEqual([
      "bulk-compliance",
      "bulk-insurance",
    ]);
    const results = engine.results();
    expect(results.get("AB12CDE")).toMatchObject({
      insurance: { status: "insured" },
      compliance: {
        status: "checked",
        compliant: true,
        checks: CHECKS_PASS,
        vehicle: VEHICLE,
      },
    });
    expect(results.get("MT15EXP")?.compliance).toMatchObject({
      status: "checked",
      compliant: false,
      checks: { motValid: false },
    });
    expect(results.get("ER19NFD")).toMatchObject({
      insurance: { status: "not-found" },
      compliance: { status: "not-found" },
    });
    expectOneOutcomeEach(registrations, engine.batches, true);
  });

  it("emits a result only when both parts are final, after retrying the part that failed", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.endpoint === "bulk-compliance" &&
        upstream.requestsFor("AB12CDE", "bulk-compliance") === 1
          ? problemResponse(500, "INTERNAL")
          : undefined,
    });
    const engine = startEngine({
      registrations,
      checkCompliance: true,
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(upstream.requestsFor("AB12CDE", "bulk-compliance")).toBe(2);
    expect(upstream.requestsFor("AB12CDE", "bulk-insurance")).toBe(1);
    expect(engine.batches).toHaveLength(1);
    expectOneOutcomeEach(registrations, engine.batches, true);
  });

  it.each([404, 405])(
    "falls back to one compliance check per vehicle when bulk compliance answers %i, for the rest of the run",
    async (status) => {
      const clock = fakeClock();
      const many = [...registrations, ...registrationsNumbered(6)];
      const upstream = fakeUpstream({
        clock,
        ...upstreamFacts,
        latencyMs: 2,
        script: (call) => {
          if (call.endpoint === "bulk-compliance") {
            return problemResponse(
              status,
              status === 404 ? "NOT_FOUND" : "METHOD_NOT_ALLOWED",
            );
          }
          if (
            call.endpoint === "compliance" &&
            call.registrations[0] === "BD19ALL"
          ) {
            return problemResponse(400, "INVALID_REGISTRATION");
          }
          return undefined;
        },
      });
      const engine = startEngine({
        registrations: many,
        checkCompliance: true,
        tuning: quickTuning(clock, { chunkSize: 4, concurrency: 2 }),
      });

      await expect(engine.end).resolves.toEqual({ status: "finished" });
      const byEndpoint = (endpoint: string) =>
        upstream.calls.filter((call) => call.endpoint === endpoint);
      expect(byEndpoint("bulk-compliance")).toHaveLength(1);
      expect(byEndpoint("bulk-insurance")).toHaveLength(3);
      expect(
        byEndpoint("compliance")
          .map((call) => call.registrations[0])
          .sort(),
      ).toEqual([...many].sort());
      expect(upstream.maxInFlight).toBeLessThanOrEqual(2);
      const results = engine.results();
      expect(results.get("AB12CDE")?.compliance).toMatchObject({
        status: "checked",
        compliant: true,
      });
      expect(results.get("MT15EXP")?.compliance).toMatchObject({
        status: "checked",
        compliant: false,
      });
      expect(results.get("ER19NFD")?.compliance).toEqual({
        status: "not-found",
      });
      expect(results.get("BD19ALL")?.compliance).toEqual({ status: "invalid" });
      expectOneOutcomeEach(many, engine.batches, true);
    },
  );

  it("paces single compliance checks by the same rate-limit gate", async () => {
    const clock = fakeClock();
    const start = clock.now();
    const upstream = fakeUpstream({
      clock,
      window: { limit: 3, seconds: 60 },
      script: (call) =>
        call.endpoint === "bulk-compliance"
          ? problemResponse(404, "NOT_FOUND")
          : undefined,
    });
    const engine = startEngine({
      registrations: ["AB12CDE", "MT15EXP"],
      checkCompliance: true,
      tuning: quickTuning(clock, { concurrency: 1 }),
    });

    await engine.end;
    // Bulk insurance, bulk compliance (404) and one single check fill the window of 3.
    expect(upstream.calls.map((call) => call.at - start)).toEqual([
      0, 0, 0, 60_000,
    ]);
    expect(upstream.throttled).toBe(0);
    expectOneOutcomeEach(["AB12CDE", "MT15EXP"], engine.batches, true);
  });
});
