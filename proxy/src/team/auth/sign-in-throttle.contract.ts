import type { LimitStore } from "@vics/server-kit/rate-limiter";
import { describe, expect, it } from "vitest";
import { SignInThrottle, type ThrottleVerdict } from "./sign-in-throttle.ts";

const settings = { perAccount: 3, perAddress: 5, windowSeconds: 60 };
/** Caps too high to matter: these tests are of the counts. */
const options = { hashes: { perProcess: 1000, perAddress: 1000 } };

/** One try to its end: its hash slot left, and given back when the password was right. */
async function finish(verdict: ThrottleVerdict, right: boolean) {
  if (!verdict.ok) return verdict.reason;
  verdict.attempt.release();
  if (right) await verdict.attempt.succeeded();
  return "checked";
}

/** What every place the throttle counts in (memory, Redis) must do; `store` is the test's. */
export function signInThrottleContract(store: () => LimitStore) {
  const throttle = () => new SignInThrottle(settings, store(), options);
  const signIn = async (
    on: SignInThrottle,
    email: string,
    address: string,
    right = false,
    device?: string,
  ) => finish(await on.begin({ email, address, device }), right);

  describe("the sign-in throttle", () => {
    it("counts each try before its password is checked: of many at once, only the limit are checked", async () => {
      const on = throttle();
      const verdicts = await Promise.all(
        Array.from({ length: 30 }, (_, i) =>
          on.begin({ email: "ann@example.org", address: `10.0.0.${i}` }),
        ),
      );
      expect(verdicts.filter((verdict) => verdict.ok)).toHaveLength(3);
      const refused = verdicts.find((verdict) => !verdict.ok);
      expect(refused).toMatchObject({ ok: false, reason: "throttled" });
      expect(!refused!.ok && refused!.retryAfterSeconds).toBeGreaterThan(55);
      for (const verdict of verdicts) await finish(verdict, false);
      // The right password now is refused too, for anyone, known or not, in any case.
      expect(await signIn(on, " ANN@example.org", "10.0.1.1", true)).toBe(
        "throttled",
      );
      expect(await signIn(on, "bob@example.org", "10.0.1.1")).toBe("checked");
    });

    it("lets a stranger lock an account for strangers, never for the owner's address or browser", async () => {
      const on = throttle();
      expect(await signIn(on, "ann@example.org", "198.51.100.7", true)).toBe(
        "checked",
      );
      const device = await on.trust("ann@example.org", "198.51.100.7");
      for (let i = 0; i < 3; i++)
        await signIn(on, "ann@example.org", `203.0.113.${i}`);
      expect(await signIn(on, "ann@example.org", "203.0.113.99")).toBe(
        "throttled",
      );
      // The owner at the address she signed in from, and in her browser anywhere.
      expect(await signIn(on, "ann@example.org", "198.51.100.7", true)).toBe(
        "checked",
      );
      expect(
        await signIn(on, "ann@example.org", "192.0.2.50", true, device),
      ).toBe("checked");
      // The browser's token trusts it for Ann only, and a made-up one for no one.
      expect(
        await signIn(on, "bob@example.org", "203.0.113.1", false, device),
      ).toBe("checked");
      expect(
        await signIn(on, "ann@example.org", "192.0.2.51", true, "made-up"),
      ).toBe("throttled");
    });

    it("counts the owner's own address and browser apart, each to the same limit", async () => {
      const on = throttle();
      await signIn(on, "ann@example.org", "198.51.100.7", true);
      const device = await on.trust("ann@example.org", "198.51.100.7");
      for (let i = 0; i < 3; i++)
        await signIn(on, "ann@example.org", "198.51.100.7");
      expect(await signIn(on, "ann@example.org", "198.51.100.7", true)).toBe(
        "throttled",
      );
      for (let i = 0; i < 3; i++)
        await signIn(on, "ann@example.org", "192.0.2.50", false, device);
      expect(
        await signIn(on, "ann@example.org", "192.0.2.60", true, device),
      ).toBe("throttled");
    });

    it("stops an address after its failures on every account, a /64 counted as one address", async () => {
      const on = throttle();
      for (let i = 0; i < 5; i++)
        await signIn(on, `user${i}@example.org`, `2001:db8:7:1::${i + 1}`);
      expect(
        await signIn(on, "fresh@example.org", "2001:db8:7:1:abcd::1"),
      ).toBe("throttled");
      expect(await signIn(on, "fresh@example.org", "2001:db8:7:2::1")).toBe(
        "checked",
      );
    });

    it("gives a right password's try back, so an office's sign-ins never stop it", async () => {
      const on = throttle();
      for (let i = 0; i < 12; i++)
        expect(
          await signIn(on, `user${i}@example.org`, "192.0.2.1", true),
        ).toBe("checked");
      // Ann's own typos, at her own address, are forgotten once she has it right.
      await on.trust("ann@example.org", "192.0.2.1");
      for (let round = 0; round < 2; round++) {
        await signIn(on, "ann@example.org", "192.0.2.1");
        await signIn(on, "ann@example.org", "192.0.2.1");
        expect(await signIn(on, "ann@example.org", "192.0.2.1", true)).toBe(
          "checked",
        );
      }
    });

    it("throttles a signed-in user's password change by the user, not by others", async () => {
      const on = throttle();
      const change = async (userId: string, right = false) =>
        finish(await on.beginPasswordChange(userId, "192.0.2.1"), right);
      for (let i = 0; i < 3; i++)
        expect(await change("user-1")).toBe("checked");
      expect(await change("user-1", true)).toBe("throttled");
      expect(await change("user-2", true)).toBe("checked");
    });
  });
}
