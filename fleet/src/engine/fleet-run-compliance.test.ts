import { describe, expect, it } from "vitest";
import { fakeUpstream } from "../testing/fake-upstream.ts";
import {
  CHECKS_PASS,
  policyFixture,
  problemResponse,
  VEHICLE,
} from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  fakeClock,
  quickTuning,
  registrationsNumbered,
  startEngine,
} from "../testing/engine-run.ts";

const registrations = ["AB12CDE", "MT15EXP", "ER19NFD", "BD19ALL"];
const upstreamFacts = { notFound: ["ER19NFD"], nonCompliant: ["MT15EXP"] };

describe("a fleet run that also checks compliance", () => {
  it("sends one bulk compliance request per chunk and takes each vehicle's insurance from it", async () => {
    const clock = fakeClock();
    const lastPolicy = policyFixture({ validTo: "2026-11-04" });
    const upstream = fakeUpstream({
      clock,
      ...upstreamFacts,
      lapsed: { LP08SED: lastPolicy },
      notInsured: ["UN51NSD"],
    });
    const many = [...registrations, "LP08SED", "UN51NSD"];
    const engine = startEngine({
      client: upstream.client,
      registrations: many,
      checkCompliance: true,
      tuning: quickTuning(clock, { chunkSize: 2 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.calls.map((call) => call.endpoint)).toEqual([
      "bulk-compliance",
      "bulk-compliance",
      "bulk-compliance",
    ]);
    const results = engine.results();
    expect(results.get("AB12CDE")).toMatchObject({
      insurance: {
        status: "insured",
        policy: policyFixture(),
        vehicle: VEHICLE,
      },
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
    expect(results.get("LP08SED")?.insurance).toEqual({
      status: "not-insured",
      lastPolicy,
      vehicle: VEHICLE,
    });
    expect(results.get("UN51NSD")?.insurance).toEqual({
      status: "not-insured",
      lastPolicy: null,
      vehicle: VEHICLE,
    });
    expectOneOutcomeEach(many, engine.batches, true);
  });

  it("asks bulk insurance for a chunk whose compliance items lack the policy (an older upstream): two requests per chunk", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      ...upstreamFacts,
      notInsured: ["BD19ALL"],
      complianceWithoutPolicies: true,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      checkCompliance: true,
      tuning: quickTuning(clock, { chunkSize: 2 }),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    const perChunk = (chunk: string[]) =>
      upstream.calls
        .filter((call) => call.registrations.some((r) => chunk.includes(r)))
        .map((call) => call.endpoint);
    expect(perChunk(["AB12CDE", "MT15EXP"])).toEqual([
      "bulk-compliance",
      "bulk-insurance",
    ]);
    // ER19NFD's failed item needs no policy: only BD19ALL is asked again.
    expect(perChunk(["ER19NFD", "BD19ALL"])).toEqual([
      "bulk-compliance",
      "bulk-insurance",
    ]);
    expect(upstream.requestsFor("ER19NFD", "bulk-insurance")).toBe(0);
    const results = engine.results();
    expect(results.get("AB12CDE")).toMatchObject({
      insurance: { status: "insured", policy: policyFixture() },
      compliance: { status: "checked", compliant: true },
    });
    expect(results.get("BD19ALL")).toMatchObject({
      insurance: { status: "not-insured", lastPolicy: null },
      compliance: { status: "checked", compliant: false },
    });
    expect(results.get("ER19NFD")).toMatchObject({
      insurance: { status: "not-found" },
      compliance: { status: "not-found" },
    });
    expectOneOutcomeEach(registrations, engine.batches, true);
  });

  it("asks bulk insurance on its own when the chunk's bulk compliance request keeps failing", async () => {
    const clock = fakeClock();
    const upstream = fakeUpstream({
      clock,
      script: (call) =>
        call.endpoint === "bulk-compliance"
          ? problemResponse(500, "INTERNAL")
          : undefined,
    });
    const engine = startEngine({
      client: upstream.client,
      registrations,
      checkCompliance: true,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(upstream.requestsFor("AB12CDE", "bulk-insurance")).toBe(1);
    expect(engine.results().get("AB12CDE")).toMatchObject({
      insurance: { status: "insured" },
      compliance: { status: "not-checked" },
    });
    expectOneOutcomeEach(registrations, engine.batches, true);
  });

  it("retries the chunk's one request, and emits each result once with both parts", async () => {
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
      client: upstream.client,
      registrations,
      checkCompliance: true,
      tuning: quickTuning(clock),
    });

    await engine.end;
    expect(upstream.requestsFor("AB12CDE", "bulk-compliance")).toBe(2);
    expect(upstream.requestsFor("AB12CDE", "bulk-insurance")).toBe(0);
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
        client: upstream.client,
        registrations: many,
        checkCompliance: true,
        tuning: quickTuning(clock, { chunkSize: 4, concurrency: 2 }),
      });

      await expect(engine.end).resolves.toEqual({ status: "finished" });
      const byEndpoint = (endpoint: string) =>
        upstream.calls.filter((call) => call.endpoint === endpoint);
      // The chunks already out when the first refusal came back are refused too (2 at most).
      expect(byEndpoint("bulk-compliance").length).toBeLessThanOrEqual(2);
      // Each chunk's insurance is then asked in bulk, once.
      expect(byEndpoint("bulk-insurance")).toHaveLength(3);
      expect(
        byEndpoint("bulk-insurance")
          .flatMap((call) => call.registrations)
          .sort(),
      ).toEqual([...many].sort());
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
      client: upstream.client,
      registrations: ["AB12CDE", "MT15EXP"],
      checkCompliance: true,
      tuning: quickTuning(clock, { concurrency: 1 }),
    });

    await engine.end;
    // Bulk compliance (404), then bulk insurance and one single check fill the window of 3.
    expect(upstream.calls.map((call) => call.at - start)).toEqual([
      0, 0, 0, 60_000,
    ]);
    expect(upstream.throttled).toBe(0);
    expectOneOutcomeEach(["AB12CDE", "MT15EXP"], engine.batches, true);
  });

  it("keeps a single check's fact sources and its tax and MOT dates on the row, as the bulk answer's (issue 35)", async () => {
    const clock = fakeClock();
    const factSources = {
      tax: { source: "dvla-ves", asOf: "2026-11-29T10:02:00.000Z" },
    } as const;
    const upstream = fakeUpstream({
      clock,
      script: (call) => {
        if (call.endpoint === "bulk-compliance")
          return problemResponse(405, "METHOD_NOT_ALLOWED");
        if (call.endpoint !== "compliance") return undefined;
        return Response.json({
          registration: "AB12CDE",
          compliant: true,
          checks: CHECKS_PASS,
          lastChecked: "2026-11-29T10:05:00.000Z",
          dataAsOf: {
            insurance: "2026-11-28T06:00:00.000Z",
            tax: "2026-11-28T06:00:00.000Z",
            mot: "2026-11-27T06:00:00.000Z",
          },
          factSources,
        });
      },
    });
    const engine = startEngine({
      client: upstream.client,
      registrations: ["AB12CDE"],
      checkCompliance: true,
      tuning: quickTuning(clock),
    });

    await expect(engine.end).resolves.toEqual({ status: "finished" });
    expect(engine.results().get("AB12CDE")?.compliance).toEqual({
      status: "checked",
      compliant: true,
      checks: CHECKS_PASS,
      factSources,
      recordsAsOf: {
        tax: "2026-11-28T06:00:00.000Z",
        mot: "2026-11-27T06:00:00.000Z",
      },
    });
  });
});
