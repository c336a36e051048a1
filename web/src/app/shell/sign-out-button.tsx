// The header's "Sign out". With saved fleet runs or a list in this browser, it first goes to
// the page that says they will be removed; without, it signs out at once.
import { useState } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { useNavigate } from "react-router";
import type { SessionUser } from "@vics/shared";
import { appPaths } from "../../lib/app-paths.ts";
import { savedFleetChecks, signOutNow } from "../sign-out.ts";

export function SignOutButton({ user }: { user: SessionUser }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);

  async function signOut() {
    if (busy) return;
    setBusy(true);
    try {
      const saved = await (await savedFleetChecks()).summary(user.id);
      if (saved.runs > 0 || saved.list) {
        setBusy(false);
        void navigate(appPaths.signOut());
        return;
      }
      await signOutNow(queryClient, user.id, false);
    } catch {
      // The sign-out page says what went wrong and offers to try again.
      setBusy(false);
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
