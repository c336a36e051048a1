// The one error type a client of the API receives: the web app's API client throws it to every
// screen, and the fleet engine's HTTP client (@vics/fleet) throws it in Node, so the engine
// judges a failure the same way wherever it runs.
import type { Role } from "./access.ts";
import type { ProblemCode } from "./problem.ts";
import type { RateLimitState } from "./rate-limit.ts";

export type ApiErrorCode = ProblemCode | "NETWORK" | "INVALID_RESPONSE";

export interface ApiErrorInit {
  status: number;
  code: ApiErrorCode;
  detail: string;
  requestId?: string;
  retryAfterSeconds?: number;
  rateLimit?: RateLimitState;
  /** On VEHICLE_NOT_FOUND: registrations the service holds that differ only by O/0 or I/1. */
  suggestions?: string[];
  /** The role the request needed, as far as its path tells (read on ROLE_REQUIRED). */
  neededRole?: Role;
  /** On RATE_LIMITED: the person's own limit refused it (the proxy's), not the key's plan. */
  ownLimit?: boolean;
  cause?: unknown;
}

export class ApiError extends Error {
  /** HTTP status; 0 when no response arrived (network failure). */
  status: number;
  code: ApiErrorCode;
  requestId?: string;
  retryAfterSeconds?: number;
  rateLimit?: RateLimitState;
  suggestions?: string[];
  neededRole?: Role;
  ownLimit?: boolean;
  detail: string;

  constructor(init: ApiErrorInit) {
    super(init.detail, { cause: init.cause });
    this.name = "ApiError";
    this.status = init.status;
    this.code = init.code;
    this.detail = init.detail;
    this.requestId = init.requestId;
    this.retryAfterSeconds = init.retryAfterSeconds;
    this.rateLimit = init.rateLimit;
    this.suggestions = init.suggestions;
    this.neededRole = init.neededRole;
    this.ownLimit = init.ownLimit;
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

/** The code to use when an error response carries no readable problem document. */
export function codeForStatus(status: number): ProblemCode {
  if (status === 401) return "UNAUTHORIZED";
  if (status === 404) return "NOT_FOUND";
  if (status === 405) return "METHOD_NOT_ALLOWED";
  if (status === 413) return "PAYLOAD_TOO_LARGE";
  if (status === 429) return "RATE_LIMITED";
  if (status === 502) return "BAD_GATEWAY";
  if (status === 503) return "SERVICE_UNAVAILABLE";
  if (status === 504) return "GATEWAY_TIMEOUT";
  if (status >= 500) return "INTERNAL";
  return "MALFORMED_REQUEST";
}

/**
 * An answer's body as JSON, or undefined when it is empty or not JSON (the caller judges it by
 * its status and schema). A connection that breaks while the body arrives is a NETWORK
 * ApiError, which the caller may retry like any other; an abort rethrows the signal's reason.
 */
export async function readAnswerJson(
  response: Response,
  context: {
    requestId?: string;
    rateLimit?: RateLimitState;
    signal?: AbortSignal;
  } = {},
): Promise<unknown> {
  let text: string;
  try {
    text = await response.text();
  } catch (cause) {
    if (context.signal?.aborted) throw cause;
    throw new ApiError({
      status: response.status,
      code: "NETWORK",
      detail: "The connection to the vehicle service broke during its answer.",
      requestId: context.requestId,
      rateLimit: context.rateLimit,
      cause,
    });
  }
  try {
    return text === "" ? undefined : (JSON.parse(text) as unknown);
  } catch {
    return undefined;
  }
}
