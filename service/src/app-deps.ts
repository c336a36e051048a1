import type { Context } from "hono";
import type { RegistrationHasher } from "@vics/shared/server/registration-hash";
import type { Logger } from "@vics/shared/server/logger";
import type { RateLimiter } from "@vics/shared/server/rate-limiter";
import type { Store } from "./store/store.ts";

/** Everything the app needs from outside, so tests can swap any of it. */
export interface AppDeps {
  /** Vehicles, and the key registry. */
  store: Store;
  rateLimiter: RateLimiter;
  now: () => Date;
  /** Whether the sandbox registrations of docs/contract.md get their special answers. */
  sandbox: boolean;
  sandboxDelayMs: number;
  sleep: (ms: number) => Promise<void>;
  logger: Logger;
  /** A registration as the logs may show it: a short keyed hash, never the plate. */
  hashRegistration: RegistrationHasher;
  /** The caller's address for the unauthenticated limit; never from X-Forwarded-For. */
  clientAddress: (c: Context) => string;
}
