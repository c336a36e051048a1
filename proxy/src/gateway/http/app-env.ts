import type { ServerEnv } from "@vics/shared/server/server-env";
import type { Context } from "hono";
import type { SignedInSession, SignedInUser } from "../asker.ts";

/**
 * Hono's typing for this app: the kit's request id, and who is signed in (set by the team's
 * session middleware; absent when signed out). Their types are the team's, named through the
 * gateway's port (asker.ts, SignedIn), so this file imports nothing from team/.
 */
export type AppEnv = {
  Variables: ServerEnv["Variables"] & {
    user?: SignedInUser;
    session?: SignedInSession;
    /** The cookie's session id, for sign-out. */
    sessionId?: string;
    /** Who sent the request, past trusted load balancers (team/http/client-address.ts). */
    clientAddress?: string | null;
  };
};
export type AppContext = Context<AppEnv>;
