// Said on a run's page when the run paused itself because the proxy refused the user: their
// session ended (sign in again: the run goes on by itself after) or their role changed.
import { Link } from "react-router";
import { appPaths } from "../../../lib/app-paths.ts";
import { roleRequiredWords } from "../../../lib/roles.ts";
import { useSessionUser } from "../../../lib/session-user.ts";
import type { AccessLost } from "@vics/fleet";
import { fleetPaths } from "../lib/fleet-paths.ts";
import { markResumeAfterSignIn } from "../lib/resume-after-sign-in.ts";

interface AccessLostNoticeProps {
  lost: AccessLost;
  runId: string;
}

const KEPT =
  "The check is paused. Nothing checked so far is lost, and no vehicle is asked for twice.";

export function AccessLostNotice({ lost, runId }: AccessLostNoticeProps) {
  const user = useSessionUser();
  if (lost === "role")
    return (
      <div className="notice" role="alert">
        <p className="notice__title">Your role no longer allows fleet checks</p>
        {user && <p>{roleRequiredWords(user.role, "fleet")}</p>}
        <p>{KEPT} It can go on once you have the fleet role again.</p>
      </div>
    );
  return (
    <div className="notice" role="alert">
      <p className="notice__title">Your session has ended</p>
      <p>Your session has ended. Sign in again to continue.</p>
      <p>{KEPT} It goes on from where it stopped once you are signed in.</p>
      <Link
        className="button"
        to={appPaths.signIn(fleetPaths.run(runId))}
        onClick={() => markResumeAfterSignIn(runId)}
      >
        Sign in again
      </Link>
    </div>
  );
}
