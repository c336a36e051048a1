import { API_KEY_HEADER } from "@vics/shared";
import { addressKey } from "@vics/server-kit/address-key";
import type { Context } from "hono";
import { createMiddleware } from "hono/factory";
import type { RateLimitDecision } from "@vics/server-kit/rate-limiter";
import type { AppDeps } from "../app-deps.ts";
import { authenticateApiKey } from "../keys/api-key.ts";
import type { ApiKeyRecord } from "../store/store.ts";
import type { AppEnv } from "./app-env.ts";
import { problems } from "./problems.ts";

/**
 * Authenticates (without rejecting yet), then counts the request: against the key when
 * it is valid, else against the client address (an IPv6 address by its /64). So a key guesser
 * meets 429 after UNAUTHENTICATED_LIMIT attempts instead of 401 forever. A wrong key that its
 * address still allows also spends the wrong-key budget shared by every address, so guessing
 * from many addresses meets 429 too (decision 031). A valid key never touches either. Sets
 * `apiKey` and `rateLimit` on the context; the caller puts the decision's headers on every
 * answer (of the limit that refused it, else of its address), refuses when it is not allowed,
 * then throws `failure` when there is one.
 */
export async function meterRequest(
  deps: MeterDeps,
  c: Context<AppEnv>,
): Promise<{ decision: RateLimitDecision; failure?: { error: unknown } }> {
  // When the key cannot be checked (the store failed), the request is metered against
  // the address, so the 500 that follows still carries the rate-limit headers.
  const presented = c.req.header(API_KEY_HEADER);
  let apiKey: ApiKeyRecord | undefined;
  let failure: { error: unknown } | undefined;
  try {
    apiKey = await authenticateApiKey(deps.store, presented);
  } catch (error) {
    failure = { error };
  }
  c.set("apiKey", apiKey);
  let decision = apiKey
    ? await deps.rateLimiter.consume(apiKey.plan, `key:${apiKey.id}`)
    : await deps.rateLimiter.consume(
        "unauthenticated",
        `address:${addressKey(deps.clientAddress(c))}`,
      );
  // A key was sent (an empty header is a missing key, as for the 401's words).
  const wrongKey = !apiKey && !failure && Boolean(presented);
  if (wrongKey && decision.allowed) {
    const budget = await deps.wrongKeyBudget.consume();
    if (!budget.allowed) decision = budget;
  }
  c.set("rateLimit", decision);
  return { decision, failure };
}

type MeterDeps = Pick<
  AppDeps,
  "store" | "rateLimiter" | "clientAddress" | "wrongKeyBudget"
>;

/** For the operations: after rate limiting, a request without a valid key is a 401. */
export const requireApiKey = createMiddleware<AppEnv>(async (c, next) => {
  if (!c.get("apiKey"))
    throw c.req.header(API_KEY_HEADER)
      ? problems.invalidKey()
      : problems.missingKey();
  await next();
});
