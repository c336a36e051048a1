import { afterEach, beforeEach, describe, expect, it } from "vitest";
import type { ProxyStore } from "../store/proxy-store.ts";
import { openSqliteProxyStore } from "../store/sqlite/sqlite-proxy-store.ts";
import { signInLocally } from "./local-sign-in.ts";
import { hashPassword } from "./passwords.ts";
import { SignInThrottle } from "./sign-in-throttle.ts";

let store: ProxyStore;
let throttle: SignInThrottle;
const PASSWORD = "sunflower over the depot";

beforeEach(async () => {
  store = openSqliteProxyStore({ path: ":memory:", auditRetentionDays: 30 });
  throttle = new SignInThrottle({
    perAccount: 3,
    perAddress: 50,
    windowSeconds: 60,
  });
  const now = new Date();
  await store.createUser(
    {
      email: "ann@example.org",
      name: "Ann",
      role: "staff",
      passwordHash: await hashPassword(PASSWORD),
    },
    now,
  );
  await store.createUser(
    { email: "oidc@example.org", name: "O", role: "staff" },
    now,
  );
});
afterEach(() => store.close());

const signIn = (email: string, password: string, address = "127.0.0.1") =>
  signInLocally(store, throttle, { email, password, address });

describe("local sign-in", () => {
  it("signs in with the right password, the email in any case", async () => {
    const result = await signIn("ANN@example.org", PASSWORD);
    expect(result.ok && result.user.email).toBe("ann@example.org");
  });

  it("answers an unknown email, a user without a password and a wrong password alike", async () => {
    expect(await signIn("nobody@example.org", PASSWORD)).toEqual({
      ok: false,
      reason: "wrong",
    });
    expect(await signIn("oidc@example.org", PASSWORD)).toEqual({
      ok: false,
      reason: "wrong",
    });
    expect(await signIn("ann@example.org", `${PASSWORD}!`)).toEqual({
      ok: false,
      reason: "wrong",
    });
  });

  it("throttles an account after its failures, even with the right password then", async () => {
    for (let i = 0; i < 3; i++)
      await signIn("ann@example.org", "not the password");
    const result = await signIn("ann@example.org", PASSWORD, "10.0.0.9");
    expect(result).toMatchObject({ ok: false, reason: "throttled" });
  });

  it("throttles unknown emails as it does known ones", async () => {
    for (let i = 0; i < 3; i++)
      await signIn("nobody@example.org", "not the password");
    expect(await signIn("nobody@example.org", "x")).toMatchObject({
      reason: "throttled",
    });
  });

  it("tells a disabled user so only when the password is right", async () => {
    const ann = await store.findUserByEmail("ann@example.org");
    await store.updateUser(ann!.id, { disabledAt: new Date().toISOString() });
    expect(await signIn("ann@example.org", "not the password")).toEqual({
      ok: false,
      reason: "wrong",
    });
    expect(await signIn("ann@example.org", PASSWORD)).toEqual({
      ok: false,
      reason: "disabled",
    });
  });
});
