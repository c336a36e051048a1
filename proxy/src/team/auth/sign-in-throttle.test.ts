import { memoryLimitStore } from "@vics/server-kit/memory-rate-limiter";
import { afterEach, describe, expect, it, vi } from "vitest";
import { memoryLogger } from "@vics/server-kit/testing/memory-logger";
import { signInThrottleContract } from "./sign-in-throttle.contract.ts";
import { SignInThrottle, waitWords } from "./sign-in-throttle.ts";

signInThrottleContract(() => memoryLimitStore);

describe("a flood of refused sign-ins", () => {
  afterEach(() => vi.useRealTimers());

  it("logs one warn line a minute for each address, not one a try", async () => {
    vi.useFakeTimers({ toFake: ["Date", "setTimeout", "clearTimeout"] });
    const log = memoryLogger("info", "proxy");
    const throttle = new SignInThrottle(
      { perAccount: 3, perAddress: 100, windowSeconds: 900 },
      memoryLimitStore,
      { logger: log },
    );
    const flood = async (address: string, tries: number) => {
      for (let i = 0; i < tries; i++) {
        const verdict = await throttle.begin({
          email: "ann@example.org",
          address,
        });
        if (verdict.ok) verdict.attempt.release();
      }
    };
    const warnings = () =>
      log.entries.filter((entry) => entry.level === "warn");
    await flood("192.0.2.1", 40);
    await flood("2001:db8:5:5::1", 20);
    await flood("2001:db8:5:5::2", 20);
    expect(warnings().map((entry) => entry.fields)).toEqual([
      expect.objectContaining({ address: "192.0.2.1", reason: "throttled" }),
      expect.objectContaining({
        address: "2001:db8:5:5::/64",
        reason: "throttled",
      }),
    ]);
    vi.advanceTimersByTime(61_000);
    await flood("192.0.2.1", 40);
    expect(warnings()).toHaveLength(3);
    expect(warnings()[2]!.fields).toMatchObject({ address: "192.0.2.1" });
  });
});

describe("the throttle's onThrottled (the metrics' sign_in refusals)", () => {
  it("is told of each try refused for too many, not of one refused for a busy moment", async () => {
    let throttled = 0;
    const throttle = new SignInThrottle(
      { perAccount: 2, perAddress: 100, windowSeconds: 900 },
      memoryLimitStore,
      {
        hashes: { perProcess: 1, perAddress: 1 },
        onThrottled: () => throttled++,
      },
    );
    const email = `ann-${Math.random()}@example.org`;
    const tries = [];
    for (let i = 0; i < 4; i++) {
      const verdict = await throttle.begin({ email, address: "192.0.2.9" });
      tries.push(verdict.ok ? "allowed" : verdict.reason);
      if (verdict.ok) verdict.attempt.release();
    }
    expect(tries).toEqual(["allowed", "allowed", "throttled", "throttled"]);
    expect(throttled).toBe(2);
    // A hash slot held: the next try is busy, not throttled.
    const held = await throttle.begin({
      email: `bob-${Math.random()}@example.org`,
      address: "192.0.2.10",
    });
    expect(held.ok).toBe(true);
    const busy = await throttle.begin({
      email: `cy-${Math.random()}@example.org`,
      address: "192.0.2.11",
    });
    expect(busy).toMatchObject({ ok: false, reason: "busy" });
    expect(throttled).toBe(2);
    if (held.ok) held.attempt.release();
  });
});

describe("wait words", () => {
  it("say seconds under a minute and whole minutes above", () => {
    expect(waitWords(1)).toBe("1 second");
    expect(waitWords(59)).toBe("59 seconds");
    expect(waitWords(60)).toBe("1 minute");
    expect(waitWords(61)).toBe("2 minutes");
    expect(waitWords(900)).toBe("15 minutes");
  });
});
