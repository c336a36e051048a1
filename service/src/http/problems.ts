import { formatRegistration, RETRY_AFTER_HEADER } from "@vics/shared";
import {
  invalidRegistration,
  ProblemError,
} from "@vics/shared/server/problem-error";
import { rateLimitHeaders } from "@vics/shared/server/rate-limit-headers";
import type { RateLimitDecision } from "@vics/shared/server/rate-limiter";

/** The problems the service answers, in its words; handlers throw them, onError renders them. */
export const problems = {
  invalidRegistration,
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
  internal: () =>
    new ProblemError(
      500,
      "INTERNAL",
      "The service hit an unexpected problem. Please retry later.",
    ),
};
