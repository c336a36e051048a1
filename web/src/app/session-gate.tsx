// Every page but the sign-in ones needs a session: while it is being asked for, the page waits;
// signed out, the browser goes to the sign-in page and comes back to the same address after;
// a page the role cannot use says so instead. Inside, any part of the app can ask who is signed
// in (lib/session-user.ts) without importing the sign-in feature.
import { useMemo, useState } from "react";
import { Navigate, Outlet, useLocation, useMatches } from "react-router";
import { hasRole, type SessionUser } from "@vics/shared";
import { BusyButton } from "../components/busy-button.tsx";
import { DocumentTitle } from "../components/document-title.tsx";
import { LoadingMessage } from "../components/loading-message.tsx";
import { RoleRequired } from "../components/role-required.tsx";
import { useSession } from "../features/auth/index.ts";
import { appPaths } from "../lib/app-paths.ts";
import {
  SessionUserContext,
  type SessionUserState,
} from "../lib/session-user.ts";
import { routeAccess } from "./route-access.ts";

export function SessionGate() {
  const state = useSession();
  const location = useLocation();
  const access = routeAccess(useMatches());
  const signedIn = state.status === "signed-in" ? state.session.user : null;
  // The last user signed in on this page load: a page that keeps its work stays with them.
  const [lastUser, setLastUser] = useState<SessionUser | null>(signedIn);
  if (signedIn && signedIn !== lastUser) setLastUser(signedIn);
  const user = signedIn ?? lastUser;
  const ended = signedIn === null;
  const context = useMemo<SessionUserState | null>(
    () => (user ? { user, ended } : null),
    [user, ended],
  );

  if (state.status === "pending")
    return <LoadingMessage>Checking who is signed in…</LoadingMessage>;
  if (state.status === "error")
    return (
      <div className="column-two-thirds">
        <DocumentTitle title="Sorry, there is a problem" />
        <h1 className="heading-l">VICS cannot check who is signed in</h1>
        <p>VICS could not be reached. Check your network connection.</p>
        <BusyButton
          busy={state.retrying}
          busyLabel="Trying again…"
          onClick={state.retry}
        >
          Try again
        </BusyButton>
      </div>
    );
  if (state.status === "signed-out" && !(access.staysWhenSignedOut && user)) {
    const here = location.pathname + location.search;
    return (
      <Navigate
        replace
        to={appPaths.signIn(here)}
        state={{ sessionEnded: lastUser !== null }}
      />
    );
  }
  if (!user || !context) return null;
  return (
    <SessionUserContext value={context}>
      {access.needs && !hasRole(user.role, access.needs) ? (
        <RoleRequired role={user.role} needed={access.needs} />
      ) : (
        <Outlet />
      )}
    </SessionUserContext>
  );
}
