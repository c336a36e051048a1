import {
  formatRegistration,
  type Problem,
  type ProblemCode,
  RETRY_AFTER_HEADER,
} from "@vics/shared";
import type { ContentfulStatusCode } from "hono/utils/http-status";
import type { RateLimitDecision } from "../rate-limit/rate-limiter.ts";
import { rateLimitHeaders } from "./rate-limit-headers.ts";

/** An error the caller should see as a problem document; handlers throw it, onError renders it. */
export class ProblemError extends Error {
  readonly status: ContentfulStatusCode;
  readonly code: ProblemCode;
  readonly headers: Record<string, string>;
  readonly extensions: Pick<Problem, "suggestions">;

  constructor(
    status: ContentfulStatusCode,
    code: ProblemCode,
    detail: string,
    headers: Record<string, string> = {},
    extensions: Pick<Problem, "suggestions"> = {},
  ) {
    super(detail);
    this.name = "ProblemError";
    this.status = status;
    this.code = code;
    this.headers = headers;
    this.extensions = extensions;
  }
}

export const problems = {
  invalidRegistration: (detail: string) =>
    new ProblemError(400, "INVALID_REGISTRATION", detail),
  malformedRequest: (detail: string) =>
    new ProblemError(400, "MALFORMED_REQUEST", detail),
  payloadTooLarge: (detail: string) =>
    new ProblemError(413, "PAYLOAD_TOO_LARGE", detail),
  missingKey: () =>
    new ProblemError(
      401,
      "UNAUTHORIZED",
      "Send your API key in the X-API-Key header.",
    ),
  invalidKey: () =>
    new ProblemError(
      401,
      "UNAUTHORIZED",
      "The API key is not valid or has been revoked.",
    ),
  /** `suggestions`: registrations we hold that differ only by O/0 or I/1. */
  vehicleNotFound: (registration: string, suggestions: string[] = []) =>
    new ProblemError(
      404,
      "VEHICLE_NOT_FOUND",
      `No vehicle found with registration ${formatRegistration(registration)}. Check the letters O and 0, I and 1.`,
      {},
      suggestions.length > 0 ? { suggestions } : {},
    ),
  rateLimited(decision: RateLimitDecision) {
    const retryAfter = Math.max(1, decision.resetSeconds);
    return new ProblemError(
      429,
      "RATE_LIMITED",
      `Rate limit of ${decision.limit} requests per 60 seconds reached. Retry in ${retryAfter} seconds.`,
      {
        ...rateLimitHeaders({ ...decision, remaining: 0 }),
        [RETRY_AFTER_HEADER]: String(retryAfter),
      },
    );
  },
  routeNotFound: () =>
    new ProblemError(
      404,
      "NOT_FOUND",
      "There is no such route in this API. The operations are listed at /v1/openapi.json.",
    ),
  methodNotAllowed: (method: string, allow: string) =>
    new ProblemError(
      405,
      "METHOD_NOT_ALLOWED",
      `${method} is not allowed here; use ${allow}.`,
      { Allow: allow },
    ),
};
