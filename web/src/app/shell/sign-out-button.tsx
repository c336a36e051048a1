// The header's "Sign out". With saved fleet runs or a list in this browser, it first goes to
// the page that says they will be removed; without, it signs out at once.
import { useState } from "react";
import { useNavigate } from "react-router";
import type { SessionUser } from "@vics/shared";
import { appPaths } from "../../lib/app-paths.ts";
import { savedFleetChecks, useSignOutMutation } from "../sign-out.ts";

export function SignOutButton({ user }: { user: SessionUser }) {
  const navigate = useNavigate();
  // Looking for saved fleet work in this browser first: a read, so no mutation.
  const [looking, setLooking] = useState(false);
  const signingOut = useSignOutMutation();
  const busy = looking || signingOut.isPending || signingOut.isSuccess;

  async function signOut() {
    if (busy) return;
    setLooking(true);
    try {
      const saved = await (await savedFleetChecks()).summary(user.id);
      if (saved.runs > 0 || saved.list) {
        setLooking(false);
        void navigate(appPaths.signOut());
        return;
      }
      await signingOut.mutateAsync({ userId: user.id, everywhere: false });
    } catch {
      // The sign-out page says what went wrong and offers to try again.
      setLooking(false);
      void navigate(appPaths.signOut(), { state: { failed: true } });
    }
  }

  return (
    <button
      type="button"
      className="app-header__sign-out"
      aria-disabled={busy || undefined}
      onClick={() => void signOut()}
    >
      {busy ? "Signing out…" : "Sign out"}
    </button>
  );
}
