import type { ServerEnv } from "@vics/server-kit/server-env";
import type { Context } from "hono";
import type { SignedInUser } from "../asker.ts";

/**
 * The request variables only the team sets and reads (the session, its cookie's id, the client
 * address): team/http/app-env.ts fills this in. The gateway's own typecheck
 * (tsconfig.gateway.json) compiles without the team, so there it is empty and no gateway file
 * can read them.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the team's declaration.
export interface TeamVariables {}

/**
 * Hono's typing for this app: the kit's request id, who is signed in (set by the team's session
 * middleware; absent when signed out) and the team's own variables. One typing, because Hono's
 * Context is invariant in it; the team's types arrive through the ports (asker.ts SignedIn,
 * TeamVariables), so this file imports nothing from team/.
 */
export type AppEnv = {
  Variables: ServerEnv["Variables"] & {
    user?: SignedInUser;
  } & Partial<TeamVariables>;
};
export type AppContext = Context<AppEnv>;
