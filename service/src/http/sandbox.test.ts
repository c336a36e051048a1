import {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  PLAN_LIMITS,
} from "@vics/shared";
import { describe, expect, it, vi } from "vitest";
import { BULK_CHECKS } from "../testing/bulk-checks.ts";
import { freshServices } from "../testing/services.ts";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { SANDBOX_REGISTRATIONS } from "@vics/shared";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
  postBulk,
} from "../testing/requests.ts";

const startService = freshServices();

async function start(sandbox: boolean) {
  const sleep = vi.fn((_ms: number) => Promise.resolve());
  const logger = memoryLogger();
  const service = await startService({ sandbox, sleep, logger });
  return { service, sleep, logger, key: await service.createKey("standard") };
}

const CHECKS = [
  [
    "insurance",
    (registration: string) => `/v1/vehicle/${registration}/insurance`,
    InsuranceRecordSchema,
  ],
  [
    "compliance",
    (registration: string) => `/v1/compliance/${registration}`,
    ComplianceRecordSchema,
  ],
] as const;

describe.each(CHECKS)(
  "sandbox mode on the %s check",
  (_check, path, schema) => {
    it("answers ER19NFD with 404", async () => {
      const { service, key } = await start(true);
      await expectProblem(
        await call(service, path("ER19NFD"), { key }),
        404,
        "VEHICLE_NOT_FOUND",
      );
    });

    it("answers ER19ERR with a proper 500", async () => {
      const { service, key, logger } = await start(true);
      const response = await call(service, path("er19 err"), { key });
      expectMeteredHeaders(response, PLAN_LIMITS.standard);
      const problem = await expectProblem(response, 500, "INTERNAL");
      expect(problem.detail).not.toContain("ER19ERR");
      // An expected simulation, not an incident: no error-level line, no stack trace.
      expect(logger.events.filter((event) => event.level === "error")).toEqual(
        [],
      );
      expect(logger.events).toContainEqual(
        expect.objectContaining({ msg: "sandbox: simulated failure" }),
      );
    });

    it("answers ER19THR with a 429 carrying the headers of a real one", async () => {
      const { service, key } = await start(true);
      const response = await call(service, path("ER19THR"), { key });
      expectMeteredHeaders(response, PLAN_LIMITS.standard);
      expect(response.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect(
        Number(response.headers.get("Retry-After")),
      ).toBeGreaterThanOrEqual(1);
      await expectProblem(response, 429, "RATE_LIMITED");
    });

    it("answers ER19SLO after the sandbox delay, with a record", async () => {
      const { service, key, sleep } = await start(true);
      const response = await call(service, path("ER19SLO"), { key });
      // The contract's "answers after 3 seconds".
      expect(sleep).toHaveBeenCalledWith(3000);
      expect(response.status).toBe(200);
      expect(schema.parse(await response.json()).registration).toBe("ER19SLO");
    });

    it("treats them as ordinary unknown registrations when sandbox mode is off", async () => {
      const { service, key, sleep } = await start(false);
      for (const registration of Object.keys(SANDBOX_REGISTRATIONS))
        await expectProblem(
          await call(service, path(registration), { key }),
          404,
          "VEHICLE_NOT_FOUND",
        );
      expect(sleep).not.toHaveBeenCalled();
    });
  },
);

describe.each(BULK_CHECKS)(
  "sandbox mode on the $check check",
  ({ path, schema }) => {
    async function bulk(sandbox: boolean, registrations: string[]) {
      const started = await start(sandbox);
      const response = await postBulk(
        started.service,
        path,
        { registrations },
        { key: started.key },
      );
      expectMeteredHeaders(response, PLAN_LIMITS.standard);
      return { ...started, response };
    }

    it.each([
      ["ER19NFD", "Vehicle not found"],
      ["er19 err", "Temporarily unavailable, retry later"],
    ])(
      "fails the %s item with %j, and answers the rest",
      async (registration, error) => {
        const { response, sleep } = await bulk(true, [
          "AB12CDE",
          registration,
          "AB12CDE",
        ]);
        expect(response.status).toBe(200);
        const answer = schema.parse(await response.json());
        expect(answer).toMatchObject({
          processed: 3,
          successful: 2,
          failed: 1,
        });
        expect(answer.results[1]).toMatchObject({
          registration: registration.replace(" ", "").toUpperCase(),
          error,
        });
        expect(sleep).not.toHaveBeenCalled();
      },
    );

    it("answers the whole request with a 429 carrying the headers of a real one when ER19THR is anywhere", async () => {
      const { response } = await bulk(true, [
        "AB12CDE",
        "ZZ99ZZZ",
        "ER19THR",
        "AB12CDE",
      ]);
      expect(response.headers.get("X-RateLimit-Remaining")).toBe("0");
      expect(
        Number(response.headers.get("Retry-After")),
      ).toBeGreaterThanOrEqual(1);
      await expectProblem(response, 429, "RATE_LIMITED");
    });

    it("waits the sandbox delay once for the whole request when ER19SLO is anywhere, and answers it", async () => {
      const { response, sleep } = await bulk(true, [
        "ER19SLO",
        "AB12CDE",
        "er19slo",
      ]);
      expect(sleep).toHaveBeenCalledTimes(1);
      expect(sleep).toHaveBeenCalledWith(3000);
      expect(response.status).toBe(200);
      const answer = schema.parse(await response.json());
      expect(answer).toMatchObject({ processed: 3, successful: 3, failed: 0 });
      expect(answer.results[0]).toMatchObject({
        registration: "ER19SLO",
        vehicle: { make: "Volkswagen", model: "Golf" },
      });
      expect(answer.results[2]).toEqual(answer.results[0]);
    });

    it("treats them as ordinary unknown registrations when sandbox mode is off", async () => {
      const registrations = Object.keys(SANDBOX_REGISTRATIONS);
      const { response, sleep } = await bulk(false, registrations);
      expect(response.status).toBe(200);
      const answer = schema.parse(await response.json());
      expect(answer.results.map((item) => item.error)).toEqual(
        registrations.map(() => "Vehicle not found"),
      );
      expect(sleep).not.toHaveBeenCalled();
    });
  },
);
