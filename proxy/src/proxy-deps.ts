import type { Logger } from "@vics/server-kit/logger";
import type { RequestMetrics } from "@vics/server-kit/metrics";
import type { LimitStore } from "@vics/server-kit/rate-limiter";
import type { UserLimiter } from "./team/limits/user-limits.ts";
import type { ProxyStore } from "./team/store/proxy-store.ts";
import type { RegistrationHasher } from "@vics/server-kit/registration-hash";
import type { UpstreamSend } from "./gateway/upstream/upstream-call.ts";
import type { WatchJobs } from "./team/watch/jobs/watch-jobs.ts";

/** The time in milliseconds, as Date.now gives it; a test's clock moves only when told. */
export interface Clock {
  now(): number;
}

export const systemClock: Clock = { now: () => Date.now() };

/**
 * Everything the proxy needs from outside, so tests can swap any of it (as the service's
 * AppDeps). What it is told (addresses, the key, limits) is ProxySettings, in app.ts.
 */
export interface ProxyDeps {
  /** For what the proxy keeps a while: replayed bulk answers lapse by it (decision 028). */
  clock: Clock;
  /** Each person's own limit of look-ups, on top of the key's plan (limits/user-limits.ts). */
  limiter: UserLimiter;
  /**
   * Where the sign-in throttles count, and the limiter above in index.ts: memory, or Redis
   * shared by replicas (RATE_LIMIT_URL). Its ping() tells a readiness check whether Redis answers.
   */
  limitStore: LimitStore;
  /** Users, sessions, one-time links and the audit log (store/proxy-store.ts). */
  store: ProxyStore;
  logger: Logger;
  /** How the proxy reaches the vehicle service: an undici pool in production (upstream-pool.ts). */
  upstream: UpstreamSend;
  /** A registration as the logs may show it: a short keyed hash, never the plate. */
  hashRegistration: RegistrationHasher;
  /** Told of every answered request when METRICS_PORT is set (server-kit's metrics.ts). */
  metrics?: RequestMetrics;
  /** Told of each sign-in try the throttle refuses, when METRICS_PORT is set (metrics.ts). */
  onSignInThrottled?: () => void;
  /** What runs the watched fleets' re-checks; absent when they are off (no WATCH_API_KEY). */
  watchJobs?: WatchJobs;
}
