import { PLAN_LIMITS } from "@vics/shared";
import { describe, expect, it } from "vitest";
import { costRoundsPlan, startedServers } from "./forwarders.ts";

describe("costRoundsPlan", () => {
  it.each([true, false])(
    "keeps a key's warm-up and rounds under 90%% of its minute (quick: %s)",
    (quick) => {
      const { rounds, keyed, warmUp } = costRoundsPlan(quick);
      expect(rounds).toBe(5);
      expect(warmUp.requests + rounds * keyed.maxRequests).toBeLessThanOrEqual(
        PLAN_LIMITS.internal * 0.9,
      );
      expect(keyed.maxRequests).toBeGreaterThan(0);
    },
  );

  it("shortens each load when quick, never the number of rounds", () => {
    const quick = costRoundsPlan(true);
    const whole = costRoundsPlan(false);
    expect(quick.rounds).toBe(whole.rounds);
    expect(quick.timing.seconds).toBeLessThan(whole.timing.seconds);
    expect(quick.warmUp.seconds).toBeLessThan(whole.warmUp.seconds);
    expect(quick.warmUp.requests).toBe(whole.warmUp.requests);
    expect(quick.keyed).toMatchObject(quick.timing);
  });
});

describe("startedServers", () => {
  it("stops what it started, the last started first", async () => {
    const stopped: string[] = [];
    const server = (name: string) =>
      Promise.resolve({
        name,
        stop: async () => {
          stopped.push(name);
        },
      });
    const { start, stopAll } = startedServers();
    expect((await start(server("service"))).name).toBe("service");
    await start(server("proxy"));
    await stopAll();
    expect(stopped).toEqual(["proxy", "service"]);
  });
});
