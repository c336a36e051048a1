// A refused sign-in in words, never saying whether an account exists: a wrong password and an
// unknown email read the same.
import {
  type ApiError,
  DEPENDENCY_RETRY_AFTER_SECONDS,
  isApiError,
} from "@vics/shared";
import { waitWords } from "../../../lib/wait-words.ts";

export const WRONG_CREDENTIALS = "The email or password is not right.";

export function signInErrorWords(error: unknown): string {
  if (!isApiError(error)) return "VICS could not sign you in. Try again.";
  switch (error.code) {
    case "UNAUTHORIZED":
      return WRONG_CREDENTIALS;
    case "ACCOUNT_DISABLED":
      return "Your account has been disabled. Ask an admin to enable it.";
    case "RATE_LIMITED":
      return isBusy(error)
        ? "VICS is checking many sign-ins at this moment. Try again in a few seconds."
        : tooManyTries(error.retryAfterSeconds);
    case "NETWORK":
      return "VICS could not be reached. Check your network connection, then try again.";
    case "SERVICE_UNAVAILABLE":
      // Its database or Redis is restarting: no try was counted, and it passes in seconds.
      return `VICS cannot sign you in right now while part of it restarts. Try again in ${waitWords(error.retryAfterSeconds ?? DEPENDENCY_RETRY_AFTER_SECONDS)}.`;
    default:
      return "VICS could not sign you in just now. Try again in a moment.";
  }
}

/** After too many failed tries: how long to wait, from Retry-After. */
export function tooManyTries(retryAfterSeconds: number | undefined): string {
  const wait =
    retryAfterSeconds === undefined
      ? "a few minutes"
      : waitWords(retryAfterSeconds);
  return `There have been too many tries to sign in. Wait ${wait}, then try again.`;
}

/** The longest Retry-After of a refusal that means "busy this moment", not "too many tries". */
const BUSY_SECONDS = 2;

/**
 * A 429 with a Retry-After of a second or two: the proxy was hashing as many passwords as it
 * allows at once. The throttle's own refusals wait minutes.
 */
export function isBusy(
  error: unknown,
): error is ApiError & { retryAfterSeconds: number } {
  return (
    isApiError(error) &&
    error.code === "RATE_LIMITED" &&
    error.retryAfterSeconds !== undefined &&
    error.retryAfterSeconds <= BUSY_SECONDS
  );
}
