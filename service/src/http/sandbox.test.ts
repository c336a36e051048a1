import {
  ComplianceRecordSchema,
  InsuranceRecordSchema,
  PLAN_LIMITS,
} from "@vics/shared";
import { describe, expect, it, vi } from "vitest";
import { freshServices } from "../test-support/services.ts";
import { memoryLogger } from "../logger.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
} from "../test-support/requests.ts";

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
      for (const registration of ["ER19NFD", "ER19ERR", "ER19THR", "ER19SLO"])
        await expectProblem(
          await call(service, path(registration), { key }),
          404,
          "VEHICLE_NOT_FOUND",
        );
      expect(sleep).not.toHaveBeenCalled();
    });
  },
);
