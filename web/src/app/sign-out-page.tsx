// "/sign-out" (and "?everywhere=yes"): before signing out, says what of the user's fleet work
// this browser will lose, and how many, so they can download results first. Staff share
// computers, so their saved runs and list go with them.
import { useEffect, useState } from "react";
import { Link, useLocation, useSearchParams } from "react-router";
import { BusyButton } from "../components/busy-button.tsx";
import { DocumentTitle } from "../components/document-title.tsx";
import { LoadingMessage } from "../components/loading-message.tsx";
import { appPaths } from "../lib/app-paths.ts";
import { useSessionUser } from "../lib/session-user.ts";
import type { SavedFleetChecks } from "../features/fleet/index.ts";
import { savedFleetChecks, useSignOutMutation } from "./sign-out.ts";
import { count } from "../lib/count.ts";

/** "your 3 saved fleet checks and the list you were preparing", or undefined for nothing. */
export function savedWords(saved: SavedFleetChecks): string | undefined {
  const runs =
    saved.runs === 0
      ? undefined
      : saved.runs === 1
        ? "your saved fleet check"
        : `your ${count(saved.runs)} saved fleet checks`;
  const list = saved.list ? "the fleet list you were preparing" : undefined;
  if (runs && list) return `${runs} and ${list}`;
  return runs ?? list;
}

export function SignOutPage() {
  const user = useSessionUser();
  const [params] = useSearchParams();
  const location = useLocation();
  const everywhere = params.get("everywhere") === "yes";
  const [saved, setSaved] = useState<SavedFleetChecks>();
  const [unknown, setUnknown] = useState(false);
  const signingOut = useSignOutMutation();
  const busy = signingOut.isPending || signingOut.isSuccess;
  const [failed, setFailed] = useState(
    (location.state as { failed?: boolean } | null)?.failed === true,
  );
  const userId = user?.id;

  useEffect(() => {
    if (!userId) return;
    let live = true;
    savedFleetChecks()
      .then((checks) => checks.summary(userId))
      .then(
        (summary) => live && setSaved(summary),
        () => live && setUnknown(true),
      );
    return () => {
      live = false;
    };
  }, [userId]);

  if (!user) return null;

  function signOut() {
    if (!user) return;
    setFailed(false);
    signingOut.mutate(
      { userId: user.id, everywhere },
      { onError: () => setFailed(true) },
    );
  }

  const title = everywhere ? "Sign out of every session" : "Sign out";
  const words = saved && savedWords(saved);
  const items = saved ? saved.runs + (saved.list ? 1 : 0) : 0;
  const action = everywhere ? "Sign out everywhere" : "Sign out";
  return (
    <div className="grid-row">
      <div className="column-two-thirds">
        <DocumentTitle title={title} />
        {failed && (
          <div className="notice" role="alert">
            <p className="notice__title">You have not been signed out</p>
            <p>
              VICS could not be reached. Check your network connection, then try
              again.
            </p>
          </div>
        )}
        <h1 className="heading-l">{title}</h1>
        {everywhere && (
          <p>
            This signs you out of VICS on every computer and browser where you
            are signed in, this one included.
          </p>
        )}
        {!saved && !unknown ? (
          <LoadingMessage>
            Looking for fleet checks saved in this browser…
          </LoadingMessage>
        ) : (
          <>
            {words && (
              <>
                <p>
                  Signing out removes {words} from this browser, so that the
                  next person to use it cannot see them.
                </p>
                {saved && saved.runs > 0 && (
                  <p>
                    Download any results you need first, from{" "}
                    <Link to={appPaths.fleet()}>your fleet checks</Link>.
                  </p>
                )}
              </>
            )}
            {unknown && (
              <p>
                Signing out removes your saved fleet checks from this browser.
              </p>
            )}
            <div className="button-group">
              <BusyButton
                busy={busy}
                busyLabel="Signing out…"
                onClick={signOut}
              >
                {items > 0
                  ? `${action} and remove ${items === 1 ? "it" : "them"}`
                  : action}
              </BusyButton>
              <Link
                to={everywhere ? appPaths.account() : appPaths.home()}
                className="button button--secondary"
              >
                Cancel
              </Link>
            </div>
          </>
        )}
      </div>
    </div>
  );
}
