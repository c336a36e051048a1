// Rate limits are exact under concurrency, over real sockets as clients meet them: 50 requests
// at once with a trial key (10 a minute) get exactly 10 answers other than 429, on every
// operation, single and bulk; each of the 429s says so with Remaining 0 and a Retry-After.
import { API_KEY_HEADER, PLAN_LIMITS } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { describe, expect, it } from "vitest";
import { freshServices } from "../testing/services.ts";

const start = freshServices();
const serve = loopbackServers();

async function listening() {
  const service = await start();
  const { base } = await serve(service.app.fetch);
  return { service, base };
}

const BULK_BODY = JSON.stringify({
  registrations: ["AB12CDE", "ZZ99ZZZ", "bad!"],
});

const OPERATIONS = [
  ["GET", "/v1/vehicle/AB12CDE/insurance", undefined],
  ["GET", "/v1/compliance/AB12CDE", undefined],
  ["POST", "/v1/vehicle/bulk-insurance", BULK_BODY],
  ["POST", "/v1/vehicle/bulk-compliance", BULK_BODY],
] as const;

describe("rate limits under 50 parallel requests on a trial key", () => {
  it.each(OPERATIONS)(
    "%s %s: exactly 10 answered, 40 refused with 429",
    async (method, path, body) => {
      const { service, base } = await listening();
      const key = await service.createKey("trial");
      const responses = await Promise.all(
        Array.from({ length: 50 }, () =>
          fetch(base + path, {
            method,
            body,
            headers: {
              [API_KEY_HEADER]: key,
              ...(body ? { "Content-Type": "application/json" } : {}),
            },
          }),
        ),
      );
      const statuses = responses.map((response) => response.status);
      expect(statuses.filter((status) => status !== 429)).toHaveLength(
        PLAN_LIMITS.trial,
      );
      expect(
        statuses
          .filter((status) => status !== 429)
          .every((status) => status === 200),
      ).toBe(true);
      const refused = responses.filter((response) => response.status === 429);
      expect(refused).toHaveLength(50 - PLAN_LIMITS.trial);
      for (const response of refused) {
        expect(response.headers.get("X-RateLimit-Remaining")).toBe("0");
        expect(
          Number(response.headers.get("Retry-After")),
        ).toBeGreaterThanOrEqual(1);
      }
      // The answered ones counted down 9..0, each Remaining given once.
      const remaining = responses
        .filter((response) => response.status === 200)
        .map((response) =>
          Number(response.headers.get("X-RateLimit-Remaining")),
        )
        .sort((a, b) => b - a);
      expect(remaining).toEqual([9, 8, 7, 6, 5, 4, 3, 2, 1, 0]);
      await Promise.all(responses.map((response) => response.body?.cancel()));
    },
  );
});
