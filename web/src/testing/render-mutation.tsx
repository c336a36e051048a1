// Renders a feature's mutation hook with a fresh QueryClient (no retries, as render-route's), so
// a test can seed the queries a write should refresh and look at them after it.
import type { ReactNode } from "react";
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { renderHook } from "@testing-library/react";

export function renderMutation<T>(hook: () => T) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <QueryClientProvider client={queryClient}>{children}</QueryClientProvider>
  );
  const { result } = renderHook(hook, { wrapper });
  return { queryClient, result };
}

/** Whether a cached query has been marked invalid (and so is fetched again when next used). */
export function isInvalidated(
  queryClient: QueryClient,
  queryKey: readonly unknown[],
): boolean | undefined {
  return queryClient.getQueryState(queryKey)?.isInvalidated;
}
