// An admin list read from the proxy: "Loading…" while it comes, the LoadProblem notice with
// "Try again" if it cannot be read, else what `children` makes of the data.
import type { ReactNode } from "react";
import type { UseQueryResult } from "@tanstack/react-query";
import { LoadingMessage } from "../../../components/loading-message.tsx";
import { LoadProblem } from "./load-problem.tsx";

export function QueryView<T>({
  query,
  loading,
  problemTitle,
  children,
}: {
  query: UseQueryResult<T>;
  /** Said while it loads, such as "Loading the users…". */
  loading: string;
  /** The notice's title when it cannot be read, such as "The users cannot be shown". */
  problemTitle: string;
  children: (data: T) => ReactNode;
}) {
  if (query.isPending) return <LoadingMessage>{loading}</LoadingMessage>;
  if (query.isError)
    return (
      <LoadProblem
        title={problemTitle}
        error={query.error}
        retrying={query.isFetching}
        onRetry={() => void query.refetch()}
      />
    );
  return <>{children(query.data)}</>;
}
