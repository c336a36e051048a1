import { AUTH_PATHS, CLIENT_HEADER, RETRY_AFTER_HEADER } from "@vics/shared";
import { loopbackServers } from "@vics/server-kit/testing/loopback-server";
import { beforeEach, describe, expect, it, vi } from "vitest";

/**
 * The sign-in as a script attacks it, on the real proxy and a real socket: guesses sent at once
 * from one address. Passwords are counted as they are checked, never timed.
 */

const checks = { started: 0, running: 0, most: 0 };

vi.mock("./passwords.ts", async (original) => {
  const real = await original<typeof import("./passwords.ts")>();
  return {
    ...real,
    verifyPassword: async (password: string, phc: string) => {
      checks.started += 1;
      checks.running += 1;
      checks.most = Math.max(checks.most, checks.running);
      try {
        return await real.verifyPassword(password, phc);
      } finally {
        checks.running -= 1;
      }
    },
  };
});

const { createTestProxy, fakeUpstream } =
  await import("../../testing/index.ts");
const { hashPassword } = await import("./passwords.ts");
const { DEFAULT_THROTTLE } = await import("./sign-in-throttle.ts");

const PASSWORD = "sunflower over the depot";
const serve = loopbackServers();

beforeEach(() => {
  Object.assign(checks, { started: 0, running: 0, most: 0 });
});

describe("a burst of guesses at one account from one address", () => {
  it("checks one password at a time, no more than the limit in all, refuses the right one after, and warns once", async () => {
    const test = createTestProxy({ fetch: fakeUpstream().fetch });
    await test.store.createUser(
      {
        email: "ann@example.org",
        name: "Ann",
        role: "fleet",
        passwordHash: await hashPassword(PASSWORD),
      },
      new Date(),
    );
    checks.started = 0;
    const { base } = await serve(test.anonymous.fetch);
    const signIn = (password: string) =>
      fetch(base + AUTH_PATHS.signIn, {
        method: "POST",
        headers: { [CLIENT_HEADER]: "web", "Content-Type": "application/json" },
        body: JSON.stringify({ email: "ann@example.org", password }),
      });

    const burst = (round: number) =>
      Promise.all(
        Array.from({ length: 150 }, (_, i) => signIn(`guess ${round}.${i}`)),
      );
    const answers = await burst(0);
    // One at a time until the limit's worth has been checked (bounded), then another burst.
    for (let i = 0; i < DEFAULT_THROTTLE.perAccount; i++) {
      if (checks.started >= DEFAULT_THROTTLE.perAccount) break;
      answers.push(await signIn(`one more guess ${i}`));
    }
    answers.push(...(await burst(1)));
    const right = await signIn(PASSWORD);

    expect(right.status).toBe(429);
    expect(checks.started).toBe(DEFAULT_THROTTLE.perAccount);
    expect(checks.most).toBe(1);
    const statuses = new Set(answers.map((answer) => answer.status));
    expect([...statuses].sort()).toEqual([401, 429]);
    for (const answer of answers.filter((answer) => answer.status === 429))
      expect(Number(answer.headers.get(RETRY_AFTER_HEADER))).toBeGreaterThan(0);
    const warnings = test.log.entries.filter(
      (entry) =>
        entry.level === "warn" &&
        entry.message.startsWith("sign-in tries refused"),
    );
    expect(warnings.map((entry) => entry.fields.address)).toEqual([
      "127.0.0.1",
    ]);
  }, 60_000);
});
