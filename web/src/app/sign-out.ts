// Signing out, as the app does it: first the user's saved fleet runs and list go from this
// browser (staff share computers), then the proxy ends the session (or every session) and
// every cached answer is forgotten, then a full page load to where the proxy says (the
// provider's sign-out, or the sign-in page), so nothing of the user stays in memory either.
import {
  useMutation,
  useQueryClient,
  type QueryClient,
} from "@tanstack/react-query";
import { authPages } from "../features/auth/index.ts";
import { loadSavedFleetChecks } from "../features/fleet/index.ts";
import { browserNavigation } from "../lib/browser-navigation.ts";

/** The fleet check's saved runs, loaded on demand (its code is not in the first download). */
export async function savedFleetChecks() {
  return loadSavedFleetChecks();
}

export async function signOutNow(
  queryClient: QueryClient,
  userId: string,
  everywhere: boolean,
): Promise<void> {
  await (await savedFleetChecks()).clear(userId);
  const { signOut } = await authPages();
  browserNavigation.assign(await signOut(queryClient, everywhere));
}

export interface SignOut {
  userId: string;
  /** Every session of the user, this one included. */
  everywhere: boolean;
}

/**
 * Signing out as a mutation: nothing to refresh, as every cached answer goes. Once it has
 * worked the browser is leaving, so a caller shows itself busy while `isPending || isSuccess`.
 */
export function useSignOutMutation() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ userId, everywhere }: SignOut) =>
      signOutNow(queryClient, userId, everywhere),
  });
}
