import { UNAUTHENTICATED_LIMIT } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { freshServices } from "../testing/services.ts";
import {
  call,
  expectMeteredHeaders,
  expectProblem,
} from "../testing/requests.ts";

// The client address comes from a test header here; the real resolver reads the socket.
const start = freshServices({
  clientAddress: (c) => c.req.header("x-test-address") ?? "198.51.100.1",
});

const INSURANCE = "/v1/vehicle/AB12CDE/insurance";

describe("API key authentication", () => {
  it("answers 401 for a missing key, counted against the client address", async () => {
    const response = await call(await start(), INSURANCE);
    expectMeteredHeaders(response, UNAUTHENTICATED_LIMIT);
    expect(response.headers.get("X-RateLimit-Remaining")).toBe(
      String(UNAUTHENTICATED_LIMIT - 1),
    );
    const problem = await expectProblem(response, 401, "UNAUTHORIZED");
    expect(problem.detail).toMatch(/X-API-Key/);
  });

  it("answers 401 for an unknown key and for a revoked key", async () => {
    const service = await start();
    await expectProblem(
      await call(service, INSURANCE, { key: "vics_not-a-real-key" }),
      401,
      "UNAUTHORIZED",
    );
    const key = await service.createKey("standard", "to-revoke");
    expect((await call(service, INSURANCE, { key })).status).toBe(200);
    await service.store.revokeKey("to-revoke", new Date().toISOString());
    const response = await call(service, INSURANCE, { key });
    expectMeteredHeaders(response, UNAUTHENTICATED_LIMIT);
    await expectProblem(response, 401, "UNAUTHORIZED");
  });

  it("limits unauthenticated requests per address: 429 instead of 401 past the limit", async () => {
    const service = await start();
    const statuses: number[] = [];
    for (let i = 0; i <= UNAUTHENTICATED_LIMIT; i++)
      statuses.push(
        (await call(service, INSURANCE, { key: `guess-${i}` })).status,
      );
    expect(
      statuses
        .slice(0, UNAUTHENTICATED_LIMIT)
        .every((status) => status === 401),
    ).toBe(true);
    expect(statuses.at(-1)).toBe(429);

    const limited = await call(service, INSURANCE, {
      headers: { "X-Forwarded-For": "203.0.113.9" },
    });
    await expectProblem(limited, 429, "RATE_LIMITED");
    expect(limited.headers.get("X-RateLimit-Remaining")).toBe("0");
    expect(Number(limited.headers.get("Retry-After"))).toBeGreaterThanOrEqual(
      1,
    );

    // Another address has its own allowance; a valid key is not affected at all.
    expect(
      (
        await call(service, INSURANCE, {
          headers: { "x-test-address": "198.51.100.2" },
        })
      ).status,
    ).toBe(401);
    const key = await service.createKey("trial");
    expect((await call(service, INSURANCE, { key })).status).toBe(200);
  });

  it("counts IPv6 addresses by their /64: two addresses in one share the limit", async () => {
    const service = await start();
    const from = (address: string, i: number) =>
      call(service, INSURANCE, {
        key: `guess-${i}`,
        headers: { "x-test-address": address },
      });
    const statuses: number[] = [];
    for (let i = 0; i <= UNAUTHENTICATED_LIMIT; i++)
      statuses.push(
        (await from(i % 2 ? "2001:db8:0:1::a" : "2001:db8:0:1:ffff::b", i))
          .status,
      );
    expect(statuses.slice(0, UNAUTHENTICATED_LIMIT)).toEqual(
      Array(UNAUTHENTICATED_LIMIT).fill(401),
    );
    expect(statuses.at(-1)).toBe(429);
    expect((await from("2001:db8:0:2::a", 0)).status).toBe(401);
  });

  it("checks the key before the registration: an invalid one with no key is 401", async () => {
    await expectProblem(
      await call(await start(), "/v1/compliance/NOT-VALID!"),
      401,
      "UNAUTHORIZED",
    );
  });
});
