// What a screen does when one of its writes answers. A feature's useXMutation hook passes these
// to useRefreshingMutation (use-refreshing-mutation.ts), which runs onSuccess before the write's
// refresh, so the screen's words and state change in the order they did before the write was a
// mutation (a "check now" notes its time before the refetch it starts); the mutation stays
// pending until the invalidated queries have refetched (its test shows it).
export interface WriteCallbacks<TAnswer, TVariables> {
  onSuccess?: (answer: TAnswer, variables: TVariables) => void;
  onError?: (error: Error, variables: TVariables) => void;
}
