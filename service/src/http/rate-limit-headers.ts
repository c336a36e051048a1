import { RATE_LIMIT_HEADERS } from "@vics/shared";
import type { RateLimitDecision } from "../rate-limit/rate-limiter.ts";

export function rateLimitHeaders(
  decision: RateLimitDecision,
): Record<string, string> {
  return {
    [RATE_LIMIT_HEADERS.limit]: String(decision.limit),
    [RATE_LIMIT_HEADERS.remaining]: String(decision.remaining),
    [RATE_LIMIT_HEADERS.reset]: String(decision.resetSeconds),
  };
}
