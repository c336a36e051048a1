import { describe, expect, it } from "vitest";
import type { FleetClient } from "../fleet-client.ts";
import { createFleetRun } from "./fleet-run.ts";
import type { VehicleResult } from "../results.ts";
import {
  bulkBody,
  bulkComplianceBody,
  CHECKS_PASS,
} from "../testing/answers.ts";
import {
  expectOneOutcomeEach,
  registrationsNumbered,
} from "../testing/engine-run.ts";

const reading = { limit: 100_000, remaining: 90_000, resetSeconds: 60 };

/** Answers at once, in memory: what is left to measure is the engine itself. */
const memoryClient: FleetClient = {
  bulkInsurance: async (registrations) => ({
    data: bulkBody(
      registrations.map((registration) => ({ registration, insured: false })),
    ),
    rateLimit: reading,
  }),
  bulkCompliance: async (registrations) => ({
    data: bulkComplianceBody(
      registrations.map((registration) => ({
        registration,
        compliant: true,
        checks: CHECKS_PASS,
      })),
    ),
    rateLimit: reading,
  }),
  compliance: async () => {
    throw new Error("not used");
  },
};

describe("a fleet run at the fleet's full size", () => {
  it("answers 100,000 registrations, insurance and compliance, one result each, in 200 requests", async () => {
    const registrations = registrationsNumbered(100_000, "S");
    const batches: VehicleResult[][] = [];
    let requests = 0;
    const counting: FleetClient = {
      ...memoryClient,
      bulkInsurance: (...args) => (
        (requests += 1),
        memoryClient.bulkInsurance(...args)
      ),
      bulkCompliance: (...args) => (
        (requests += 1),
        memoryClient.bulkCompliance(...args)
      ),
    };
    const run = createFleetRun({
      registrations,
      checkCompliance: true,
      client: counting,
      onResults: (batch) => void batches.push(batch),
      onProgress: () => undefined,
    });

    await expect(run.start()).resolves.toEqual({ status: "finished" });
    expect(requests).toBe(200);
    expectOneOutcomeEach(registrations, batches, true);
  });
});
