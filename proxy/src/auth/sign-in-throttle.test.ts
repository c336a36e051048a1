import { describe, expect, it } from "vitest";
import { SignInThrottle, waitWords } from "./sign-in-throttle.ts";

const settings = { perAccount: 3, perAddress: 5, windowSeconds: 60 };

describe("the sign-in throttle", () => {
  it("stops an account after its failures, for anyone, known or not, with the wait", async () => {
    const throttle = new SignInThrottle(settings);
    for (let i = 0; i < 3; i++) {
      expect(await throttle.check("nobody@example.org", `10.0.0.${i}`)).toEqual(
        { ok: true },
      );
      await throttle.failed("nobody@example.org", `10.0.0.${i}`);
    }
    const verdict = await throttle.check("NOBODY@example.org ", "10.0.0.99");
    expect(verdict).toMatchObject({ ok: false });
    expect(verdict.ok === false && verdict.retryAfterSeconds).toBeGreaterThan(
      55,
    );
    expect(await throttle.check("ann@example.org", "10.0.0.99")).toEqual({
      ok: true,
    });
  });

  it("stops an address after its failures, on every account", async () => {
    const throttle = new SignInThrottle(settings);
    for (let i = 0; i < 5; i++)
      await throttle.failed(`user${i}@example.org`, "10.0.0.1");
    expect(await throttle.check("fresh@example.org", "10.0.0.1")).toMatchObject(
      { ok: false },
    );
    expect(await throttle.check("fresh@example.org", "10.0.0.2")).toEqual({
      ok: true,
    });
  });

  it("forgets an account's failures after a right password", async () => {
    const throttle = new SignInThrottle(settings);
    for (let i = 0; i < 2; i++)
      await throttle.failed("ann@example.org", "10.0.0.1");
    await throttle.succeeded("ann@example.org");
    await throttle.failed("ann@example.org", "10.0.0.1");
    await throttle.failed("ann@example.org", "10.0.0.1");
    expect(await throttle.check("ann@example.org", "10.0.0.3")).toEqual({
      ok: true,
    });
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
