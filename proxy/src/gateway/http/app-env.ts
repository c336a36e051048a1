import type { ServerEnv } from "@vics/shared/server/server-env";
import type { Context } from "hono";
import type { Session, User } from "../../team/store/proxy-store.ts";

/**
 * Hono's typing for this app: the kit's request id, and who is signed in (set by the
 * session middleware, auth/session-middleware.ts; absent when signed out).
 */
export type AppEnv = {
  Variables: ServerEnv["Variables"] & {
    user?: User;
    session?: Session;
    /** The cookie's session id, for sign-out. */
    sessionId?: string;
    /** Who sent the request, past trusted load balancers (client-address.ts). */
    clientAddress?: string | null;
  };
};
export type AppContext = Context<AppEnv>;
