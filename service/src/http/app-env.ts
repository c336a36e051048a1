import type { ApiKeyRecord } from "../store/store.ts";
import type { RateLimitDecision } from "../rate-limit/rate-limiter.ts";

export interface AppEnv {
  Variables: {
    requestId: string;
    /** The caller's active key; undefined when none or an invalid one was sent. */
    apiKey: ApiKeyRecord | undefined;
    rateLimit: RateLimitDecision;
  };
}
