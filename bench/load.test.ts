import { expect, it } from "vitest";
import { CONNECTIONS, loadScenario, randomPick } from "./load.ts";

it("randomPick draws each registration from the sample, and not always the same", () => {
  const sample = ["AB12CDE", "XY34ZZZ", "LM56NOP"];
  const pick = randomPick(sample);
  const drawn = Array.from({ length: 300 }, () => pick());
  expect(
    drawn.filter((registration) => !sample.includes(registration)),
  ).toEqual([]);
  // 300 draws of three all alike: a chance of about one in 10^142.
  expect(new Set(drawn).size).toBeGreaterThan(1);
});

it("loadScenario refuses, in words and before any request, a warm-up of fewer requests than connections", async () => {
  let requested = 0;
  // A second's warm-up in 32 seconds gets 1/32 of 1,000 requests: 31, fewer than 64 connections.
  await expect(
    loadScenario(
      "too few",
      {
        url: "http://127.0.0.1:9",
        headers: {},
        path: () => {
          requested++;
          return "/";
        },
      },
      { warmUpSeconds: 1, seconds: 31, maxRequests: 1_000 },
    ),
  ).rejects.toThrow(
    `a load of at most 31 requests over ${CONNECTIONS} connections: give it at least ${CONNECTIONS}`,
  );
  expect(requested).toBe(0);
});
