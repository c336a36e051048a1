// The one shape of a write in the web app: a mutation whose success runs the screen's onSuccess
// first, then refreshes what the write changed, and stays pending until that refresh is done, so
// a button stays busy until the page shows the new state (not the old one for a moment).
import {
  useMutation,
  useQueryClient,
  type QueryClient,
  type QueryKey,
} from "@tanstack/react-query";
import type { WriteCallbacks } from "./write-callbacks.ts";

/**
 * What a write changed: the key of the queries to read again (by their queryOptions' key, never
 * retyped), or what to do with the answer (put it in the cache, apply a new session). A function
 * that returns a promise keeps the mutation pending until it settles; one that returns nothing
 * (a refetch started with `void`) lets it finish at once.
 */
export type Refresh<TAnswer> =
  QueryKey | ((answer: TAnswer, queryClient: QueryClient) => unknown);

export function useRefreshingMutation<TAnswer, TVariables>(
  write: (variables: TVariables) => Promise<TAnswer>,
  refresh: Refresh<TAnswer>,
  callbacks: WriteCallbacks<TAnswer, TVariables> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: write,
    onSuccess: (answer, variables) => {
      callbacks.onSuccess?.(answer, variables);
      return typeof refresh === "function"
        ? refresh(answer, queryClient)
        : queryClient.invalidateQueries({ queryKey: refresh });
    },
    onError: callbacks.onError,
  });
}
