// Whether a page's queries have all given a first answer (data, or a failure the page shows),
// so that its sections can come at once rather than push one another down as each arrives.
// Once true it stays true: a section mounted then may refetch a failed query, which reads as
// pending again, and the page must not take its sections away for that.
import { useState } from "react";
import type { UseQueryResult } from "@tanstack/react-query";

const answered = (query: UseQueryResult<unknown>) =>
  !query.isPending || query.failureCount > 0;

export function useFirstAnswers(
  queries: readonly UseQueryResult<unknown>[],
): boolean {
  const [settled, setSettled] = useState(false);
  const now = queries.every(answered);
  // Set during render, as React allows for state derived from props: no effect, no flash.
  if (now && !settled) setSettled(true);
  return settled || now;
}
