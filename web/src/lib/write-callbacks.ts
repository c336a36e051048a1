// What a screen does when one of its writes answers. A feature's useXMutation hook takes these
// and runs onSuccess before its own invalidation, so the screen's words and state change in the
// order they did before the write was a mutation (a "check now" notes its time before the
// refetch it starts); the mutation stays pending until the invalidated queries have refetched.
export interface WriteCallbacks<TAnswer, TVariables> {
  onSuccess?: (answer: TAnswer, variables: TVariables) => void;
  onError?: (error: Error, variables: TVariables) => void;
}
