import { RATE_LIMIT_HEADERS, type RateLimitState } from "@vics/shared";

/** The three header names of one budget: X-RateLimit-*, or OWN_LIMIT_HEADERS. */
interface RateLimitHeaderNames {
  limit: string;
  remaining: string;
  reset: string;
}

/**
 * The X-RateLimit-* headers of a decision: on every counted answer, and on its 429. `names`
 * gives the same three of another budget (OWN_LIMIT_HEADERS), as parseRateLimitHeaders reads.
 */
export function rateLimitHeaders(
  decision: RateLimitState,
  names: RateLimitHeaderNames = RATE_LIMIT_HEADERS,
): Record<string, string> {
  return {
    [names.limit]: String(decision.limit),
    [names.remaining]: String(decision.remaining),
    [names.reset]: String(decision.resetSeconds),
  };
}

/**
 * The same three headers set straight on an answer's Headers: for the path every check takes,
 * where a Record built only to be copied over would be garbage on each request.
 */
export function setRateLimitHeaders(
  headers: Headers,
  decision: RateLimitState,
  names: RateLimitHeaderNames = RATE_LIMIT_HEADERS,
): void {
  headers.set(names.limit, String(decision.limit));
  headers.set(names.remaining, String(decision.remaining));
  headers.set(names.reset, String(decision.resetSeconds));
}
