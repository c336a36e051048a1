import type { Logger } from "@vics/shared/server/logger";
import type { RateLimiter } from "@vics/shared/server/rate-limiter";
import type { RegistrationHasher } from "@vics/shared/server/registration-hash";
import type { UpstreamSend } from "./upstream/upstream-call.ts";

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
  /**
   * The proxy's own request limits, beside the service's per key: passed in already so a
   * limit of the proxy's (per signed-in person, say) has its place; nothing consults it yet.
   */
  limiter: RateLimiter;
  logger: Logger;
  /** How the proxy reaches the vehicle service: an undici pool in production (upstream-pool.ts). */
  upstream: UpstreamSend;
  /** A registration as the logs may show it: a short keyed hash, never the plate. */
  hashRegistration: RegistrationHasher;
}
