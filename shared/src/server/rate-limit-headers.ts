import { RATE_LIMIT_HEADERS, type RateLimitState } from "../rate-limit.ts";

/**
 * The X-RateLimit-* headers of a decision: on every counted answer, and on its 429. `names`
 * gives the same three of another budget (OWN_LIMIT_HEADERS), as parseRateLimitHeaders reads.
 */
export function rateLimitHeaders(
  decision: RateLimitState,
  names: {
    limit: string;
    remaining: string;
    reset: string;
  } = RATE_LIMIT_HEADERS,
): Record<string, string> {
  return {
    [names.limit]: String(decision.limit),
    [names.remaining]: String(decision.remaining),
    [names.reset]: String(decision.resetSeconds),
  };
}
