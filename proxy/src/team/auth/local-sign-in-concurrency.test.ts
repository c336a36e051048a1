import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";

/**
 * Guesses sent all at once, as a script sends them: the throttle counts each before its
 * password is hashed, so no more are checked than the limit allows, and the hashes running at
 * once never pass the caps. The password check is counted, not timed.
 */

const checks = { started: 0, running: 0, most: 0 };

vi.mock("./passwords.ts", async (original) => {
  const real = await original<typeof import("./passwords.ts")>();
  const counted =
    <A extends unknown[], R>(check: (...args: A) => Promise<R>) =>
    async (...args: A): Promise<R> => {
      checks.started += 1;
      checks.running += 1;
      checks.most = Math.max(checks.most, checks.running);
      try {
        return await check(...args);
      } finally {
        checks.running -= 1;
      }
    };
  return {
    ...real,
    verifyPassword: counted(real.verifyPassword),
    verifyNothing: counted(real.verifyNothing),
  };
});

const { openSqliteProxyStore } =
  await import("../store/sqlite/sqlite-proxy-store.ts");
const { hashPassword } = await import("./passwords.ts");
const { signInLocally } = await import("./local-sign-in.ts");
const { SignInThrottle } = await import("./sign-in-throttle.ts");

type Store = ReturnType<typeof openSqliteProxyStore>;

const PASSWORD = "sunflower over the depot";
const LIMITS = { perAccount: 10, perAddress: 100, windowSeconds: 900 };
/** Caps too high to matter, for the tests of the counts alone. */
const NO_CAPS = { hashes: { perProcess: 1000, perAddress: 1000 } };

let store: Store;
beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  await store.createUser(
    {
      email: "ann@example.org",
      name: "Ann",
      role: "staff",
      passwordHash: await hashPassword(PASSWORD),
    },
    new Date(),
  );
  Object.assign(checks, { started: 0, running: 0, most: 0 });
});
afterEach(() => store.close());

describe("concurrent guesses at one account", () => {
  it("check no more passwords than the limit, and the right one after it is refused", async () => {
    const throttle = new SignInThrottle(LIMITS, undefined, NO_CAPS);
    const results = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        signInLocally(store, throttle, {
          email: "ann@example.org",
          password: `guess number ${i}`,
          address: "192.0.2.7",
        }),
      ),
    );
    expect(checks.started).toBe(LIMITS.perAccount);
    expect(
      results.filter((result) => !result.ok && result.reason === "wrong"),
    ).toHaveLength(LIMITS.perAccount);
    expect(
      results.filter((result) => !result.ok && result.reason === "throttled"),
    ).toHaveLength(150 - LIMITS.perAccount);
    const right = await signInLocally(store, throttle, {
      email: "ann@example.org",
      password: PASSWORD,
      address: "192.0.2.7",
    });
    expect(right).toMatchObject({ ok: false, reason: "throttled" });
    expect(checks.started).toBe(LIMITS.perAccount);
  });

  it("never run more hashes at once than the caps, and answer the rest at once as busy", async () => {
    const throttle = new SignInThrottle(LIMITS, undefined, {
      hashes: { perProcess: 2, perAddress: 1 },
    });
    const addresses = ["192.0.2.1", "192.0.2.2", "192.0.2.3"];
    const results = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        signInLocally(store, throttle, {
          email: `someone${i}@example.org`,
          password: "not the password",
          address: addresses[i % 3]!,
        }),
      ),
    );
    expect(checks.most).toBeLessThanOrEqual(2);
    expect(checks.started).toBe(2);
    const busy = results.filter(
      (result) => !result.ok && result.reason === "busy",
    );
    expect(busy).toHaveLength(58);
    for (const result of busy)
      expect(result).toMatchObject({ retryAfterSeconds: 1 });
  });

  it("from one address, one hash at a time, a /64 counted as one address", async () => {
    const throttle = new SignInThrottle(LIMITS, undefined, {
      hashes: { perProcess: 10, perAddress: 1 },
    });
    const results = await Promise.all(
      [
        ["ann@example.org", "2001:db8:1:2::5"],
        // Another address in the same /64 is the same client.
        ["bob@example.org", "2001:db8:1:2:ffff::9"],
        ["carol@example.org", "2001:db8:1:3::5"],
      ].map(([email, address]) =>
        signInLocally(store, throttle, {
          email: email!,
          password: "not the password",
          address: address!,
        }),
      ),
    );
    expect(results.map((result) => !result.ok && result.reason)).toEqual([
      "wrong",
      "busy",
      "wrong",
    ]);
  });
});
