// Every page but the sign-in ones needs a session: while it is being asked for, the page waits;
// signed out, the browser goes to the sign-in page and comes back to the same address after
// (RoleGate, inside, turns away a role that cannot use the page). Inside, any part of the app
// can ask who is signed in (lib/session-user.ts) without importing the sign-in feature.
import { useMemo, useState } from "react";
import { Navigate, Outlet, useLocation } from "react-router";
import type { SessionUser } from "@vics/shared";
import { BusyButton } from "../components/busy-button.tsx";
import { DocumentTitle } from "../components/document-title.tsx";
import { LoadingMessage } from "../components/loading-message.tsx";
import { useSession } from "../features/auth/index.ts";
import { appPaths } from "../lib/app-paths.ts";
import {
  SessionUserContext,
  type SessionUserState,
} from "../lib/session-user.ts";

interface SessionGateProps {
  /**
   * The pages inside keep work in memory that a move to the sign-in page would cut short (a
   * fleet run): when the session ends there, they stay and say so themselves.
   */
  staysWhenSignedOut?: boolean;
}

export function SessionGate({ staysWhenSignedOut = false }: SessionGateProps) {
  const state = useSession();
  const location = useLocation();
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
  if (state.status === "signed-out" && !(staysWhenSignedOut && user)) {
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
      <Outlet />
    </SessionUserContext>
  );
}
