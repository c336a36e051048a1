export const RATE_LIMIT_HEADERS = {
  limit: "X-RateLimit-Limit",
  remaining: "X-RateLimit-Remaining",
  reset: "X-RateLimit-Reset",
} as const;

/**
 * The proxy's word on a signed-in person's own budget (decision 034), on every check it
 * forwards or refuses: look-ups (vehicles checked) a minute, left, and seconds to the reset.
 * One budget, always in the same unit, for the header's meter; X-RateLimit-* stay the
 * tighter budget in requests like the one answered, which a fleet run paces itself by.
 */
export const OWN_LIMIT_HEADERS = {
  limit: "X-Own-Limit",
  remaining: "X-Own-Remaining",
  reset: "X-Own-Reset",
} as const;

export const RETRY_AFTER_HEADER = "Retry-After";

/**
 * Seconds a 503 SERVICE_UNAVAILABLE asks a client to wait (a database or Redis restarting
 * behind VICS, or no replica answering): the servers send it, and a client missing the header
 * assumes it.
 */
export const DEPENDENCY_RETRY_AFTER_SECONDS = 5;
export const REQUEST_ID_HEADER = "X-Request-Id";
export const API_KEY_HEADER = "X-API-Key";

/** Every rate limit covers a fixed window of this many seconds. */
export const RATE_LIMIT_WINDOW_SECONDS = 60;

export interface RateLimitState {
  limit: number;
  remaining: number;
  /** Whole seconds until the window resets. */
  resetSeconds: number;
}

type HeaderSource = Pick<Headers, "get">;

function wholeNumber(value: string | null): number | undefined {
  if (value === null || !/^\d+$/.test(value.trim())) return undefined;
  return Number(value.trim());
}

/**
 * Reads the three X-RateLimit-* headers (or `names`, the same three of another budget:
 * OWN_LIMIT_HEADERS); undefined unless all three are whole numbers.
 */
export function parseRateLimitHeaders(
  headers: HeaderSource,
  names: {
    limit: string;
    remaining: string;
    reset: string;
  } = RATE_LIMIT_HEADERS,
): RateLimitState | undefined {
  const limit = wholeNumber(headers.get(names.limit));
  const remaining = wholeNumber(headers.get(names.remaining));
  const resetSeconds = wholeNumber(headers.get(names.reset));
  if (
    limit === undefined ||
    remaining === undefined ||
    resetSeconds === undefined
  )
    return undefined;
  return { limit, remaining, resetSeconds };
}

/** Seconds from a Retry-After header (delta-seconds or HTTP date); undefined if absent or unreadable. */
export function parseRetryAfter(
  headers: HeaderSource,
  now: Date = new Date(),
): number | undefined {
  const value = headers.get(RETRY_AFTER_HEADER)?.trim();
  if (!value) return undefined;
  const seconds = wholeNumber(value);
  if (seconds !== undefined) return seconds;
  const date = Date.parse(value);
  if (Number.isNaN(date)) return undefined;
  return Math.max(0, Math.ceil((date - now.getTime()) / 1000));
}
