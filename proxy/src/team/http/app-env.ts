// The team's side of the app's typing: it names its user as the one signed in (the gateway's
// SignedIn port, gateway/asker.ts) and adds the variables only it sets and reads (TeamVariables),
// so the team's code sees its whole user and session while the gateway reads only what its Asker
// declares (tsconfig.gateway.json checks the gateway without this file).
import type { Session, User } from "../store/proxy-store.ts";

export type { AppContext, AppEnv } from "../../gateway/http/app-env.ts";

declare module "../../gateway/asker.ts" {
  interface SignedIn {
    user: User;
  }
}

declare module "../../gateway/http/app-env.ts" {
  interface TeamVariables {
    session: Session;
    /** The cookie's session id, for sign-out. */
    sessionId: string;
    /** Who sent the request, past trusted load balancers (team/http/client-address.ts). */
    clientAddress: string | null;
  }
}
