// Keeps the app's idea of the session true between its own checks: an answer saying the
// session has ended signs the page out at once; one saying the role may not do something asks
// the session again (an admin may have changed the role). When the signed-in user changes, by
// whatever way, nothing cached for the one before is left.
import { useEffect, useLayoutEffect, useRef } from "react";
import { useQueryClient } from "@tanstack/react-query";
import { onAccessProblem } from "../../../lib/session-events.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session-user.ts";
import { clearCachedAnswers, type SessionState } from "../api/session-query.ts";

export function useSessionWatch(state: SessionState): void {
  const queryClient = useQueryClient();

  useEffect(
    () =>
      onAccessProblem((problem) => {
        if (problem === "SIGN_IN_REQUIRED")
          queryClient.setQueryData(SESSION_QUERY_KEY, null);
        else
          void queryClient.invalidateQueries({ queryKey: SESSION_QUERY_KEY });
      }),
    [queryClient],
  );

  const userId =
    state.status === "signed-in"
      ? state.session.user.id
      : state.status === "signed-out"
        ? null
        : undefined;
  const lastUser = useRef<string | null>(null);
  // Before the browser paints: the next user never sees a frame of the last one's answers.
  useLayoutEffect(() => {
    if (userId === undefined) return;
    if (lastUser.current !== null && lastUser.current !== userId)
      clearCachedAnswers(queryClient);
    lastUser.current = userId;
  }, [queryClient, userId]);
}
