import type { RateLimitDecision } from "@vics/server-kit/rate-limiter";
import type { ServerEnv } from "@vics/server-kit/server-env";
import type { ApiKeyRecord } from "../store/store.ts";

/** The kit's request id, and what the rate limiter learns of the caller. */
export interface AppEnv extends ServerEnv {
  Variables: ServerEnv["Variables"] & {
    /** The caller's active key; undefined when none or an invalid one was sent. */
    apiKey: ApiKeyRecord | undefined;
    rateLimit: RateLimitDecision;
    /** The edge's headers, while a directly answered route has yet to write them (edge.ts). */
    edgeHeaders: Record<string, string> | undefined;
  };
}
