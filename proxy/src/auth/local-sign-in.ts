import type { ProxyStore, User } from "../store/proxy-store.ts";
import { verifyNothing, verifyPassword } from "./passwords.ts";
import type { SignInThrottle } from "./sign-in-throttle.ts";

export type SignInResult =
  | { ok: true; user: User }
  /** One answer for an unknown email and a wrong password. */
  | { ok: false; reason: "wrong" }
  /** Said only to someone who gave the right password. */
  | { ok: false; reason: "disabled" }
  | { ok: false; reason: "throttled"; retryAfterSeconds: number };

/**
 * A local account's sign-in. An unknown email, a user without a password and a wrong password
 * all hash a password and get the same answer, so neither words nor timing tell them apart.
 */
export async function signInLocally(
  store: ProxyStore,
  throttle: SignInThrottle,
  attempt: { email: string; password: string; address: string },
): Promise<SignInResult> {
  const { email, password, address } = attempt;
  const allowed = await throttle.check(email, address);
  if (!allowed.ok) {
    return {
      ok: false,
      reason: "throttled",
      retryAfterSeconds: allowed.retryAfterSeconds,
    };
  }
  const user = await store.findUserByEmail(email);
  const right = user?.passwordHash
    ? await verifyPassword(password, user.passwordHash)
    : await verifyNothing(password);
  if (!user || !right) {
    await throttle.failed(email, address);
    return { ok: false, reason: "wrong" };
  }
  await throttle.succeeded(email);
  if (user.disabledAt !== null) return { ok: false, reason: "disabled" };
  return { ok: true, user };
}
