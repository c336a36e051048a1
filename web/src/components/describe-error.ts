// Turns any error from a check into words a member of staff can act on (never a raw status).
import {
  DEPENDENCY_RETRY_AFTER_SECONDS,
  RATE_LIMIT_WINDOW_SECONDS,
  formatRegistration,
  type Role,
  isApiError,
} from "@vics/shared";
import { roleRequiredWords } from "../lib/roles.ts";
import { waitWords } from "../lib/wait-words.ts";

export type ErrorKind =
  | "not-found"
  | "rate-limited"
  | "unavailable"
  | "service-error"
  | "unauthorized"
  | "signed-out"
  | "role-required"
  | "invalid-registration"
  | "invalid-date"
  | "unexpected";

export interface ErrorDescription {
  kind: ErrorKind;
  title: string;
  message: string;
  /** Whether a "Try again" button can help. */
  retryable: boolean;
  /** Shown only where support needs it to find the request in the logs. */
  requestId?: string;
  /**
   * Seconds to wait: before the automatic retry of a rate-limited check, or a register's
   * Retry-After (its words say the same wait).
   */
  waitSeconds?: number;
  /** "Did you mean" registrations: only ones the service holds, never guesses from the format. */
  suggestions?: string[];
}

const CONTACT_ADMIN =
  "If it keeps happening, contact your administrator and give them the reference below.";

/** `role`: the signed-in user's, for the words when their role may not do what they asked. */
export function describeError(
  error: unknown,
  registration?: string,
  role?: Role,
): ErrorDescription {
  if (!isApiError(error)) return unexpected();
  const requestId = error.requestId;
  const vehicle = registration
    ? `registration ${formatRegistration(registration)}`
    : "that registration";

  switch (error.code) {
    case "VEHICLE_NOT_FOUND":
      return {
        kind: "not-found",
        title: "No vehicle found",
        message: `No vehicle found with ${vehicle}. Check the letters O and 0, I and 1.`,
        retryable: false,

        suggestions: error.suggestions ?? [],
      };
    case "RATE_LIMITED":
      return {
        kind: "rate-limited",
        title: "Too many checks",
        // The person's own limit (the proxy's), or the key's plan that everyone shares.
        message: error.ownLimit
          ? "You have made too many checks in the last minute: this is your own limit, which other staff do not use up. It will try again automatically when your limit resets."
          : "VICS has made too many checks in the last minute: this limit is shared by everyone who uses VICS. It will try again automatically when the limit resets.",
        retryable: true,

        // At least a second, so a bad header can never cause a tight retry loop.
        waitSeconds: Math.max(
          1,
          error.retryAfterSeconds ??
            error.rateLimit?.resetSeconds ??
            RATE_LIMIT_WINDOW_SECONDS,
        ),
      };
    case "UNAUTHORIZED":
      return {
        kind: "unauthorized",
        title: "VICS cannot connect to the vehicle service",
        message:
          "VICS is not set up correctly: the vehicle service refused its access key. Contact your administrator and give them the reference below.",
        retryable: false,
        requestId,
      };
    case "SIGN_IN_REQUIRED":
      // The app goes to the sign-in page at once; this shows only for that moment.
      return {
        kind: "signed-out",
        title: "Your session has ended",
        message: "Sign in again to continue.",
        retryable: false,
      };
    case "ROLE_REQUIRED":
      return {
        kind: "role-required",
        title: "Your role does not allow this",
        message: role
          ? roleRequiredWords(role, error.neededRole)
          : "Your role does not let you do this: ask an admin.",
        retryable: false,
      };
    case "INVALID_REGISTRATION":
      return {
        kind: "invalid-registration",
        title: "Registration not recognised",
        message: `The vehicle service does not recognise ${vehicle} as a UK registration. Check it and enter it again.`,
        retryable: false,
      };
    case "DATE_OUT_OF_RANGE":
    case "MALFORMED_REQUEST":
      // A date outside what VICS holds (or not one): the service says the range in words.
      return {
        kind: "invalid-date",
        title: "VICS cannot answer for that date",
        message: `${error.detail} Choose another date, or check today.`,
        retryable: false,
      };
    case "NETWORK":
      return unavailable(
        "VICS could not connect to the vehicle service. Check your network connection, then try again.",
      );
    case "GATEWAY_TIMEOUT":
      return unavailable(
        "The vehicle service took too long to answer. Try again in a moment.",
        requestId,
      );
    case "BAD_GATEWAY":
      return unavailable(
        `VICS could not get an answer from the vehicle service. Try again in a moment. ${CONTACT_ADMIN}`,
        requestId,
      );
    case "SERVICE_UNAVAILABLE": {
      // A database or Redis behind VICS is restarting: nothing was done, and it will pass.
      const wait = waitWords(
        error.retryAfterSeconds ?? DEPENDENCY_RETRY_AFTER_SECONDS,
      );
      return {
        kind: "unavailable",
        title: "VICS is briefly unavailable",
        message: `VICS cannot answer right now while part of it restarts. Nothing was checked. Try again in ${wait}. ${CONTACT_ADMIN}`,
        retryable: true,
        requestId,
      };
    }
    case "SOURCE_UNAVAILABLE": {
      // A live register (DVLA, DVSA) could not be asked about a vehicle VICS never saw: the
      // service's words name the register and why (its key refused, down for maintenance...),
      // which "VICS restarts" would misstate. A refused key lasts until an admin acts: hence
      // the reference.
      return {
        kind: "unavailable",
        title: "The register could not be asked",
        message: `${error.detail} ${CONTACT_ADMIN}`,
        retryable: true,
        requestId,
        waitSeconds: Math.max(
          1,
          error.retryAfterSeconds ?? DEPENDENCY_RETRY_AFTER_SECONDS,
        ),
      };
    }
    case "INTERNAL":
      // The service did answer, with an error of its own: "not responding" would be untrue.
      return {
        kind: "service-error",
        title: "The vehicle service had a problem",
        message: `It could not complete this check. Try again in a moment. ${CONTACT_ADMIN}`,
        retryable: true,
        requestId,
      };
    case "INVALID_RESPONSE":
      return unexpected(
        requestId,
        "The vehicle service sent an answer VICS could not read",
      );
    default:
      return unexpected(requestId);
  }
}

/** Nothing more specific to say than "try again, then ask for help". */
function unexpected(
  requestId?: string,
  title = "Sorry, something went wrong",
): ErrorDescription {
  return {
    kind: "unexpected",
    title,
    message: `Try again. ${CONTACT_ADMIN}`,
    retryable: true,
    requestId,
  };
}

/** The service could not be reached or did not answer in time; the message says which. */
function unavailable(message: string, requestId?: string): ErrorDescription {
  return {
    kind: "unavailable",
    title: "The vehicle service is not responding",
    message,
    retryable: true,
    requestId,
  };
}
