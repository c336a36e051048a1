import type { ServerEnv } from "@vics/shared/server/server-env";
import type { Context } from "hono";

/**
 * Hono's typing for this app: for now only the kit's request id. Its own variables (who is
 * signed in, say) go here, so every handler sees them typed.
 */
export type AppEnv = ServerEnv;
export type AppContext = Context<AppEnv>;
