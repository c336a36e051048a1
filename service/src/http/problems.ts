import {
  formatRegistration,
  LIVE_SOURCE_LABELS,
  RETRY_AFTER_HEADER,
} from "@vics/shared";
import {
  invalidRegistration,
  ProblemError,
} from "@vics/server-kit/problem-error";
import { rateLimitHeaders } from "@vics/server-kit/rate-limit-headers";
import type { RateLimitDecision } from "@vics/server-kit/rate-limiter";
import type { Unrefreshed } from "../sources/paced-source.ts";
import { PAUSE_MS } from "../sources/source-queue.ts";

/** Why a register could not be asked, in the words of a 503's detail. */
const UNREFRESHED_WORDS: Record<Unrefreshed["reason"], string> = {
  waiting: "its answer is still on the way",
  "day-quota": "today's quota of requests to it is spent",
  quota: "it asked VICS to slow down",
  maintenance: "it is down for maintenance",
  unavailable: "it did not answer",
  credentials: "it refused VICS's credentials",
  malformed: "its answer could not be read",
  refused: "it refused the request",
};

/**
 * When to retry when the register or the pacer said nothing: after the queue's own pause where
 * it takes one (quota, maintenance, credentials).
 */
const UNREFRESHED_RETRY_MS: Record<Unrefreshed["reason"], number> = {
  waiting: 5_000,
  "day-quota": 3_600_000,
  unavailable: 30_000,
  malformed: 300_000,
  refused: 300_000,
  ...PAUSE_MS,
};

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
  /** A vehicle VICS does not hold, whose registers could not be asked just now (issue 35). */
  sourceUnavailable(registration: string, why: Unrefreshed) {
    const retryAfter = Math.max(
      1,
      Math.ceil((why.retryAfterMs ?? UNREFRESHED_RETRY_MS[why.reason]) / 1000),
    );
    return new ProblemError(
      503,
      "SOURCE_UNAVAILABLE",
      `VICS holds no record of ${formatRegistration(registration)} yet, and ${LIVE_SOURCE_LABELS[why.source]} could not be asked just now: ${UNREFRESHED_WORDS[why.reason]}. Retry in ${retryAfter} seconds.`,
      { [RETRY_AFTER_HEADER]: String(retryAfter) },
    );
  },
  internal: () =>
    new ProblemError(
      500,
      "INTERNAL",
      "The service hit an unexpected problem. Please retry later.",
    ),
};
