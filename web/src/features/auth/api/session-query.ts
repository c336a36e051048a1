// Who is signed in: GET /api/auth/session, null when signed out (401). Part of every page, so it
// takes the lazily loaded schema (lib/lazy-schemas.ts) and keeps zod out of the first download.
import {
  queryOptions,
  useQuery,
  type QueryClient,
} from "@tanstack/react-query";
import { AUTH_PATHS, type SessionAnswer, isApiError } from "@vics/shared";
import { apiGet } from "../../../lib/api-client.ts";
import { sessionSchema } from "../../../lib/lazy-schemas.ts";
import { reportSignedIn } from "../../../lib/session-events.ts";
import { SESSION_QUERY_KEY } from "../../../lib/session-user.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";

async function fetchSession(
  signal: AbortSignal,
): Promise<SessionAnswer | null> {
  try {
    return await apiGet(AUTH_PATHS.session, sessionSchema, { signal });
  } catch (error) {
    // 401 SIGN_IN_REQUIRED: nobody is signed in, which is an answer, not a failure.
    if (isApiError(error) && error.status === 401) return null;
    throw error;
  }
}

export function sessionQueryOptions() {
  return queryOptions({
    queryKey: SESSION_QUERY_KEY,
    queryFn: ({ signal }) => fetchSession(signal),
    // Asked again when the tab comes back into view: on a shared computer the session may have
    // ended (signed out elsewhere, disabled, timed out) while the tab was in the background.
    staleTime: 30_000,
    refetchOnWindowFocus: true,
  });
}

export type SessionState =
  | { status: "pending" }
  | { status: "error"; error: unknown; retry: () => void; retrying: boolean }
  | { status: "signed-out" }
  | { status: "signed-in"; session: SessionAnswer };

export function useSession(): SessionState {
  const query = useQuery(sessionQueryOptions());
  if (query.data === undefined) {
    if (query.isError)
      return {
        status: "error",
        error: query.error,
        retry: () => void query.refetch(),
        retrying: query.isFetching,
      };
    return { status: "pending" };
  }
  if (query.data === null) return { status: "signed-out" };
  return { status: "signed-in", session: query.data };
}

/**
 * Every cached answer but the session's: another user must never see them. A page on show
 * loses its answer too and asks again, as the user now signed in.
 */
export function clearCachedAnswers(queryClient: QueryClient): void {
  const predicate = (query: { queryKey: readonly unknown[] }) =>
    query.queryKey[0] !== SESSION_QUERY_KEY[0];
  queryClient.removeQueries({ predicate, type: "inactive" });
  void queryClient.resetQueries({ predicate, type: "active" });
}

/**
 * A sign-in succeeded: a different user than before starts with nothing cached, the session is
 * known at once (no second request), and whatever waits for a sign-in hears of it.
 */
export async function applySession(
  queryClient: QueryClient,
  session: SessionAnswer,
): Promise<void> {
  // A question "who is signed in?" still in flight was asked without the new cookie (a one-time
  // link's page asks it and signs in at once): its "nobody" must not land after this answer.
  await queryClient.cancelQueries({ queryKey: SESSION_QUERY_KEY });
  const before = queryClient.getQueryData<SessionAnswer | null>(
    SESSION_QUERY_KEY,
  );
  if (before?.user.id !== session.user.id) clearCachedAnswers(queryClient);
  queryClient.setQueryData(SESSION_QUERY_KEY, session);
  reportSignedIn(session.user);
}

/**
 * A write whose answer is a new session (signing in, setting a password): the screen's
 * onSuccess runs first, then applySession; pending until it has. The page then leaves, so a
 * caller shows itself busy while `isPending || isSuccess`.
 */
export function useSessionMutation<TVariables>(
  write: (variables: TVariables) => Promise<SessionAnswer>,
  callbacks: WriteCallbacks<SessionAnswer, TVariables> = {},
) {
  return useRefreshingMutation(
    write,
    (session, queryClient) => applySession(queryClient, session),
    callbacks,
  );
}
