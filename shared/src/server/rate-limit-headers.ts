import { RATE_LIMIT_HEADERS } from "../rate-limit.ts";
import type { RateLimitDecision } from "./rate-limiter.ts";

/** The X-RateLimit-* headers of a decision: on every counted answer, and on its 429. */
export function rateLimitHeaders(
  decision: RateLimitDecision,
): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(decision.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(decision.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(decision.resetSeconds),
  };
}
