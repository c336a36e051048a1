import type { ProxyStore, User } from "../store/proxy-store.ts";
import { verifyNothing, verifyPassword } from "./passwords.ts";
import type { SignInThrottle } from "./sign-in-throttle.ts";

export type SignInResult =
  | { ok: true; user: User }
  /** One answer for an unknown email and a wrong password. */
  | { ok: false; reason: "wrong" }
  /** Said only to someone who gave the right password. */
  | { ok: false; reason: "disabled" }
  /** Too many tries (throttled), or too many hashes running now (busy). */
  | { ok: false; reason: "throttled" | "busy"; retryAfterSeconds: number };

/**
 * A local account's sign-in. The try is counted before the password is hashed and given back
 * when it was right, so tries sent at once cannot pass the limit. An unknown email, a user
 * without a password and a wrong password all hash a password and get the same answer, so
 * neither words nor timing tell them apart. `device`: the browser's device cookie, if any.
 */
export async function signInLocally(
  store: ProxyStore,
  throttle: SignInThrottle,
  attempt: {
    email: string;
    password: string;
    address: string;
    device?: string;
  },
): Promise<SignInResult> {
  const { email, password, address, device } = attempt;
  const verdict = await throttle.begin({ email, address, device });
  if (!verdict.ok) return verdict;
  let user: User | undefined;
  let right: boolean;
  try {
    user = await store.findUserByEmail(email);
    right = user?.passwordHash
      ? await verifyPassword(password, user.passwordHash)
      : await verifyNothing(password);
  } finally {
    verdict.attempt.release();
  }
  if (!user || !right) return { ok: false, reason: "wrong" };
  await verdict.attempt.succeeded();
  if (user.disabledAt !== null) return { ok: false, reason: "disabled" };
  return { ok: true, user };
}
