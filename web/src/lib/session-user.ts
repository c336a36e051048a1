// Who is signed in, for any page or feature, without importing the sign-in feature: the app's
// session gate provides it. `ended` is true when the session ended while a page that keeps
// its work (a fleet run) stayed open: the user is the one who was signed in.
import { createContext, useContext } from "react";
import type { SessionUser } from "@vics/shared";

/** The session query's key: the app keeps it when it clears every other cached answer. */
export const SESSION_QUERY_KEY = ["auth", "session"] as const;

export interface SessionUserState {
  user: SessionUser;
  ended: boolean;
}

export const SessionUserContext = createContext<SessionUserState | null>(null);

/** The signed-in user; null outside the pages that need one (sign-in, tests of a part alone). */
export function useSessionUser(): SessionUser | null {
  return useContext(SessionUserContext)?.user ?? null;
}

/** True when the session has ended under a page that stayed open. */
export function useSessionEnded(): boolean {
  return useContext(SessionUserContext)?.ended ?? false;
}
