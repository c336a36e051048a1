import {
  OWN_LIMIT_HEADERS,
  RATE_LIMIT_HEADERS,
  RETRY_AFTER_HEADER,
  parseRateLimitHeaders,
} from "@vics/shared";
import { ProblemError } from "@vics/server-kit/problem-error";
import {
  rateLimitHeaders,
  setRateLimitHeaders,
} from "@vics/server-kit/rate-limit-headers";
import type { Forward } from "../../gateway/forward/forward.ts";
import { AUTH_PROBLEMS } from "../auth/auth-problems.ts";
import type { UserLimitDecision, UserLimiter } from "./user-limits.ts";

/**
 * The user's budget in requests like this one: `lookups` look-ups a window, `cost` each. The
 * browser reads X-RateLimit-* in requests (a bulk check is one request to the key's plan), so
 * a fleet run's pacing can compare the two budgets and never send what would be refused.
 */
function inRequests(decision: UserLimitDecision, cost: number) {
  return {
    limit: Math.floor(decision.lookups / cost),
    remaining: Math.floor(decision.lookupsLeft / cost),
    resetSeconds: decision.resetSeconds,
  };
}

const lookupWords = (count: number) =>
  `${count.toLocaleString("en-GB")} look-up${count === 1 ? "" : "s"}`;

function overLimit(decision: UserLimitDecision, cost: number) {
  const budget = inRequests(decision, cost);
  const wait = Math.max(1, decision.resetSeconds);
  const detail =
    cost > decision.lookups
      ? `This request asks for ${lookupWords(cost)}, more than your own limit of ${lookupWords(decision.lookups)} a minute. Send fewer registrations at a time.`
      : `You have used your own limit of ${lookupWords(decision.lookups)} a minute (${lookupWords(decision.lookupsLeft)} left). Try again in ${wait} second${wait === 1 ? "" : "s"}.`;
  // ownLimit: the browser says it is the person's own limit, not the team's key (the service's).
  return new ProblemError(
    429,
    "RATE_LIMITED",
    detail,
    {
      [RETRY_AFTER_HEADER]: String(wait),
      ...rateLimitHeaders(budget),
      ...rateLimitHeaders(ownBudget(decision), OWN_LIMIT_HEADERS),
    },
    { ownLimit: true },
  );
}

/**
 * The person's own budget in look-ups (OWN_LIMIT_HEADERS), on every check answer and refusal:
 * the one budget the header's meter shows, the same unit whatever the request carried.
 */
const ownBudget = (decision: UserLimitDecision) => ({
  limit: decision.lookups,
  remaining: decision.lookupsLeft,
  resetSeconds: decision.resetSeconds,
});

const SERVICE_LIMIT_HEADER_NAMES = Object.values(RATE_LIMIT_HEADERS);

/**
 * The person's budget in requests like this one, when X-RateLimit-* should say it rather than
 * the service's reading: undefined to pass the service's on as it came.
 */
function ownTighter(
  response: Response,
  decision: UserLimitDecision,
  cost: number,
) {
  // The service's own 429 says when its window ends: that is what to wait for.
  if (response.status === 429) return undefined;
  const plan = parseRateLimitHeaders(response.headers);
  const own = inRequests(decision, cost);
  if (plan) return own.remaining >= plan.remaining ? undefined : own;
  // A reading the proxy cannot parse is passed on as it came, not mixed with its own.
  if (SERVICE_LIMIT_HEADER_NAMES.some((name) => response.headers.has(name)))
    return undefined;
  return own;
}

/**
 * Every forwarded check first counts against its user's own limit (a bulk check, one per
 * registration); over it, the proxy's 429 and nothing goes upstream. An answer's X-RateLimit-*
 * are for the tighter budget: the key's plan as the service counted it, or the user's; its
 * OWN_LIMIT_HEADERS are always the user's, in look-ups.
 */
export function userLimitedForward(
  forward: Forward,
  limiter: UserLimiter,
): Forward {
  return async (c, operation, upstream) => {
    // The OpenAPI document is not a look-up.
    if (operation.check === undefined) return forward(c, operation, upstream);
    const user = c.get("user");
    if (!user) throw AUTH_PROBLEMS.signInRequired();
    const cost = operation.check.lookups(upstream.registrations ?? []);
    const decision = await limiter.consume(user.role, user.id, cost);
    if (!decision.allowed) throw overLimit(decision, cost);
    const forwarded = await forward(c, operation, upstream);
    const { headers } = forwarded.response;
    const tighter = ownTighter(forwarded.response, decision, cost);
    // Set on the forwarder's own answer (its headers are the proxy's to change): no copy of
    // the headers and no second Response per check.
    setRateLimitHeaders(headers, ownBudget(decision), OWN_LIMIT_HEADERS);
    if (tighter) setRateLimitHeaders(headers, tighter);
    return forwarded;
  };
}
