import { beforeEach, describe, expect, it, vi } from "vitest";

/**
 * Account enumeration by timing, proven by the work done rather than by a clock (a timed
 * assertion would be noise on a shared machine): an unknown email, a user without a password
 * and a wrong password each run exactly one argon2id derivation, with the same parameters and
 * tag length as a real check, and nothing else that costs.
 */

const derivations: Array<Record<string, unknown>> = [];

vi.mock("node:crypto", async (original) => {
  const crypto = await original<typeof import("node:crypto")>();
  return {
    ...crypto,
    argon2: (
      algorithm: string,
      parameters: Record<string, unknown>,
      callback: (error: Error | null, result: Buffer) => void,
    ) => {
      const { message: _m, nonce: _n, ...shape } = parameters;
      derivations.push({ algorithm, ...shape });
      return crypto.argon2(
        algorithm as "argon2id",
        parameters as unknown as Parameters<typeof crypto.argon2>[1],
        callback,
      );
    },
  };
});

const { openSqliteProxyStore } =
  await import("../store/sqlite/sqlite-proxy-store.ts");
const { hashPassword, verifyNothing } = await import("./passwords.ts");
const { signInLocally } = await import("./local-sign-in.ts");
const { SignInThrottle } = await import("./sign-in-throttle.ts");

const PASSWORD = "sunflower over the depot";

describe("sign-in work does not tell which accounts exist", () => {
  let attempt: (email: string, password: string) => Promise<unknown>;

  beforeEach(async () => {
    const store = openSqliteProxyStore({
      path: ":memory:",
      auditRetentionDays: 30,
    });
    await store.createUser(
      {
        email: "ann@example.org",
        name: "Ann",
        role: "staff",
        passwordHash: await hashPassword(PASSWORD),
      },
      new Date(),
    );
    await store.createUser(
      { email: "invited@example.org", name: "", role: "staff" },
      new Date(),
    );
    const throttle = new SignInThrottle();
    attempt = (email, password) =>
      signInLocally(store, throttle, { email, password, address: "192.0.2.1" });
    // The stand-in hash an unknown email is checked against is made once, up front.
    await verifyNothing("warm-up");
    derivations.length = 0;
  });

  it.each([
    ["an unknown email", "nobody@example.org", PASSWORD],
    ["a user who has no password yet", "invited@example.org", PASSWORD],
    ["a wrong password", "ann@example.org", `${PASSWORD}!`],
    ["the right password", "ann@example.org", PASSWORD],
  ])(
    "%s: one argon2id derivation, as a real check",
    async (_case, email, password) => {
      await attempt(email, password);
      expect(derivations).toEqual([
        {
          algorithm: "argon2id",
          memory: 19_456,
          passes: 2,
          parallelism: 1,
          tagLength: 32,
        },
      ]);
    },
  );
});
