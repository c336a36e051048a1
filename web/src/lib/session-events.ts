// What the API client learns about the signed-in session, told to whoever listens (the app's
// session, a fleet run): an answer saying the session has ended or the role may not do this,
// and a sign-in that succeeded. Plain TypeScript: the fleet engine also runs in Node.
import type { SessionUser } from "@vics/shared";

export type AccessProblem = "SIGN_IN_REQUIRED" | "ROLE_REQUIRED";

const accessListeners = new Set<(problem: AccessProblem) => void>();
const signInListeners = new Set<(user: SessionUser) => void>();
let signIns = 0;

/**
 * How many sign-ins this page has seen. A request notes it when sent: its refusal speaks of the
 * session it was sent with, so a 401 to one sent before the latest sign-in is no news.
 */
export function signInCount(): number {
  return signIns;
}

/** An answer from the proxy: 401 SIGN_IN_REQUIRED or 403 ROLE_REQUIRED. */
export function reportAccessProblem(problem: AccessProblem): void {
  for (const listener of [...accessListeners]) listener(problem);
}

export function onAccessProblem(
  listener: (problem: AccessProblem) => void,
): () => void {
  accessListeners.add(listener);
  return () => accessListeners.delete(listener);
}

/** Someone has just signed in on this page (a form, a one-time link, a new password). */
export function reportSignedIn(user: SessionUser): void {
  signIns += 1;
  for (const listener of [...signInListeners]) listener(user);
}

export function onSignedIn(listener: (user: SessionUser) => void): () => void {
  signInListeners.add(listener);
  return () => signInListeners.delete(listener);
}
