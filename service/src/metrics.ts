/**
 * The service's own Prometheus metrics, beside the kit's (server-kit's metrics.ts): whether it
 * answers ready, the requests its rate limits refuse by kind, and what it sees of PostgreSQL and
 * Redis. Made only when METRICS_PORT is set; otherwise nothing here runs.
 */
import type { Registry } from "prom-client";
import {
  dependencyMetrics,
  readyGauge,
  refusalCounter,
  type DependencyMetrics,
  type RefusalCount,
} from "@vics/server-kit/metrics";
import type { RateLimiter } from "@vics/server-kit/rate-limiter";
import type { ReadinessChecks } from "@vics/server-kit/readiness";
import type { WrongKeyBudget } from "./http/wrong-key-budget.ts";

/**
 * The service's limits, by the code's own names: a key's plan, an address without a valid key
 * (the "unauthenticated" tier), and the wrong keys of every address together (decision 031).
 */
export const SERVICE_REFUSALS = [
  "plan",
  "unauthenticated",
  "wrong_key",
] as const;
export type ServiceRefusal = (typeof SERVICE_REFUSALS)[number];

/** The limits every request is metered against (http/rate-limit.ts). */
export interface ServiceLimits {
  rateLimiter: RateLimiter;
  wrongKeyBudget: WrongKeyBudget;
}

export interface ServiceMetrics {
  dependencies: DependencyMetrics;
  /** The same limits, telling vics_rate_limit_refusals_total of each refusal. */
  counting(limits: ServiceLimits): ServiceLimits;
  /** vics_ready, from the checks GET /ready asks (app.ts's readinessChecks). */
  watchReadiness(checks: ReadinessChecks): void;
}

export function serviceMetrics(registry: Registry): ServiceMetrics {
  const refused = refusalCounter(registry, SERVICE_REFUSALS);
  return {
    dependencies: dependencyMetrics(registry),
    counting: (limits) => countingRefusals(limits, refused),
    watchReadiness: (checks) => readyGauge(registry, checks),
  };
}

/** Each limit as it was, telling `refused` of every request it does not allow. */
export function countingRefusals(
  { rateLimiter, wrongKeyBudget }: ServiceLimits,
  refused: RefusalCount<ServiceRefusal>,
): ServiceLimits {
  return {
    rateLimiter: {
      async consume(tier, account) {
        const decision = await rateLimiter.consume(tier, account);
        if (!decision.allowed)
          refused(tier === "unauthenticated" ? "unauthenticated" : "plan");
        return decision;
      },
      ping: () => rateLimiter.ping(),
    },
    wrongKeyBudget: {
      async consume() {
        const decision = await wrongKeyBudget.consume();
        if (!decision.allowed) refused("wrong_key");
        return decision;
      },
    },
  };
}
