// What a failed request means for the run, and the words a fleet manager reads on the rows
// it leaves "not checked". Never a status code: what happened, and that they can retry.
import { isApiError } from "@vics/shared";

/** Failures worth another try, after a backoff. */
export type TransientCause =
  "server" | "network" | "timeout" | "unreadable" | "unavailable";

export type RequestFailure =
  /** 429: wait, then send again (split). */
  | { kind: "throttled"; retryAfterMs: number }
  | { kind: "transient"; cause: TransientCause }
  /** The access key was refused: no retry can help, the run stops. */
  | { kind: "unauthorized" }
  /**
   * The proxy refused the user, not the request: their session has ended (401
   * SIGN_IN_REQUIRED) or their role no longer allows fleet checks (403 ROLE_REQUIRED). Nothing
   * reached the service; the run pauses until they sign in again.
   */
  | { kind: "access"; lost: AccessLost }
  /** Any other refusal (400, 404, 405, 413...): no retry. */
  | { kind: "refused"; status: number; code: string; detail: string };

/** Why a run paused by itself: the user must sign in again, or their role changed. */
export type AccessLost = "sign-in" | "role";

const DEFAULT_RETRY_AFTER_SECONDS = 60;
const RETRIED_STATUSES = new Set([500, 502, 503, 504]);

export function classifyFailure(
  error: unknown,
  timedOut: boolean,
): RequestFailure {
  if (timedOut) return { kind: "transient", cause: "timeout" };
  // Not an ApiError: a FleetClient other than the API client failed its own way. Treat it as
  // the network failing, so its rows are retried and end "not checked" rather than lost.
  if (!isApiError(error)) return { kind: "transient", cause: "network" };
  if (error.code === "SIGN_IN_REQUIRED")
    return { kind: "access", lost: "sign-in" };
  if (error.code === "ROLE_REQUIRED") return { kind: "access", lost: "role" };
  if (error.status === 429) {
    const seconds = error.retryAfterSeconds ?? DEFAULT_RETRY_AFTER_SECONDS;
    return { kind: "throttled", retryAfterMs: seconds * 1000 };
  }
  if (error.code === "NETWORK") return { kind: "transient", cause: "network" };
  if (error.code === "INVALID_RESPONSE") {
    return { kind: "transient", cause: "unreadable" };
  }
  if (RETRIED_STATUSES.has(error.status)) {
    return { kind: "transient", cause: "server" };
  }
  if (error.status === 401) return { kind: "unauthorized" };
  return {
    kind: "refused",
    status: error.status,
    code: error.code,
    detail: error.detail,
  };
}

export const THROTTLED_REASON =
  "The service kept refusing this vehicle with 'too many requests'";

/** A vehicle refused with 429 on its own while the rest of the list was answered (ER19THR). */
export const REFUSED_ALONE_REASON =
  "The service refused this vehicle each time it was asked; retry it later";

export const UNAUTHORIZED_REASON =
  "VICS could not connect to the vehicle service (access key refused)";

export function exhaustedReason(cause: TransientCause, tries: number): string {
  const times = `${tries} ${tries === 1 ? "try" : "tries"}`;
  switch (cause) {
    case "server":
      return `The vehicle service did not answer after ${times}`;
    case "network":
      return `VICS could not reach the vehicle service after ${times}`;
    case "timeout":
      return `The vehicle service took too long to answer, ${times}`;
    case "unreadable":
      return `The vehicle service sent answers VICS could not read, ${times}`;
    case "unavailable":
      return `The vehicle service was temporarily unavailable for this vehicle, ${times}`;
  }
}

export function refusedReason(detail: string): string {
  return `The vehicle service refused the request: ${detail}`;
}
