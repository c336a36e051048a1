import { PLAN_LIMITS } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { freshServices } from "../testing/services.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
} from "../testing/requests.ts";

const start = freshServices();

const remaining = (response: Response) =>
  Number(response.headers.get("X-RateLimit-Remaining"));

describe("per-plan rate limits", () => {
  it("counts every request with a valid key, whatever its outcome, then answers 429", async () => {
    const service = await start();
    const key = await service.createKey("trial");
    const paths = [
      "/v1/vehicle/AB12CDE/insurance",
      "/v1/vehicle/ZZ99ZZZ/insurance",
      "/v1/compliance/BAD!",
      "/nope",
    ];
    const seen: number[] = [];
    for (let i = 0; i < PLAN_LIMITS.trial; i++) {
      const response = await call(service, paths[i % paths.length] ?? "/", {
        key,
      });
      expect(response.status).not.toBe(429);
      expectMeteredHeaders(response, PLAN_LIMITS.trial);
      seen.push(remaining(response));
    }
    expect(seen).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);

    for (let i = 0; i < 3; i++) {
      const limited = await call(service, "/v1/vehicle/AB12CDE/insurance", {
        key,
      });
      expectMeteredHeaders(limited, PLAN_LIMITS.trial);
      expect(remaining(limited)).toBe(0);
      const retryAfter = Number(limited.headers.get("Retry-After"));
      expect(retryAfter).toBeGreaterThanOrEqual(1);
      expect(retryAfter).toBeLessThanOrEqual(60);
      const problem = await expectProblem(limited, 429, "RATE_LIMITED");
      expect(problem.detail).toContain(`${retryAfter} seconds`);
    }
  });

  it("is exact under concurrency: 25 parallel requests on a trial key get exactly 10 answers", async () => {
    const service = await start();
    const key = await service.createKey("trial");
    const responses = await Promise.all(
      Array.from({ length: 25 }, () =>
        call(service, "/v1/compliance/AB12CDE", { key }),
      ),
    );
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status !== 429)).toHaveLength(
      PLAN_LIMITS.trial,
    );
    expect(statuses.filter((status) => status === 429)).toHaveLength(15);
    expect(Math.min(...responses.map(remaining))).toBe(0);
  });

  it("gives each key its own window and its plan's limit", async () => {
    const service = await start();
    const trial = await service.createKey("trial");
    const fleet = await service.createKey("fleet");
    await Promise.all(
      Array.from({ length: 10 }, () =>
        call(service, "/v1/compliance/AB12CDE", { key: trial }),
      ),
    );
    const response = await call(service, "/v1/compliance/AB12CDE", {
      key: fleet,
    });
    expect(response.status).toBe(200);
    expectMeteredHeaders(response, PLAN_LIMITS.fleet);
    expect(remaining(response)).toBe(PLAN_LIMITS.fleet - 1);
  });

  it("reports the reset as whole seconds within the 60-second window", async () => {
    const service = await start();
    const key = await service.createKey("standard");
    const response = await call(service, "/v1/compliance/AB12CDE", { key });
    const reset = response.headers.get("X-RateLimit-Reset") ?? "";
    expect(reset).toMatch(/^\d+$/);
    expect(Number(reset)).toBeGreaterThan(0);
    expect(Number(reset)).toBeLessThanOrEqual(60);
  });
});
