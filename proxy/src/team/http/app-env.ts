// The team's side of the app's typing: it names its user and session as the ones signed in
// (the gateway's SignedIn port, gateway/asker.ts), so the team's code sees its whole user while
// the gateway reads only what its Asker declares.
import type { Session, User } from "../store/proxy-store.ts";

export type { AppContext, AppEnv } from "../../gateway/http/app-env.ts";

declare module "../../gateway/asker.ts" {
  interface SignedIn {
    user: User;
    session: Session;
  }
}
