import type { Context } from "hono";
import type { RegistrationHasher } from "@vics/server-kit/registration-hash";
import type { RequestMetrics } from "@vics/server-kit/metrics";
import type { Logger } from "@vics/server-kit/logger";
import type { RateLimiter } from "@vics/server-kit/rate-limiter";
import type { WrongKeyBudget } from "./http/wrong-key-budget.ts";
import type { Refresher } from "./sources/refresher.ts";
import type { Store } from "./store/store.ts";

/** The live registers (docs/sources.md), when the environment turns any on. */
export interface LiveSources {
  refresher: Refresher;
  /** How long a single check waits for a refresh. */
  waitMs: number;
  /** How long a bulk check waits in all. */
  bulkWaitMs: number;
}

/** Everything the app needs from outside, so tests can swap any of it. */
export interface AppDeps {
  /** Vehicles, and the key registry. */
  store: Store;
  /** The plan and address limits; its ping() tells a readiness check whether Redis answers. */
  rateLimiter: RateLimiter;
  /** Wrong keys from every address together (decision 031). */
  wrongKeyBudget: WrongKeyBudget;
  /** Absent: every fact comes from the database, as the seeded or imported records hold it. */
  sources?: LiveSources;
  now: () => Date;
  /** Whether the sandbox registrations of docs/contract.md get their special answers. */
  sandbox: boolean;
  sandboxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
  /** A registration as the logs may show it: a short keyed hash, never the plate. */
  hashRegistration: RegistrationHasher;
  /** Told of every answered request when METRICS_PORT is set (server-kit's metrics.ts). */
  metrics?: RequestMetrics;
  /**
   * The caller's address for the unauthenticated limit: the socket's peer, or past the load
   * balancers in TRUSTED_PROXIES, from X-Forwarded-For (http/client-address.ts).
   */
  clientAddress: (c: Context) => string;
}
