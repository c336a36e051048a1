// The app's React Query defaults: when a failed check is worth retrying by itself.
import { QueryClient } from "@tanstack/react-query";
import { isApiError } from "@vics/shared";

const AUTOMATIC_RETRIES = 1;

/**
 * 4xx answers will not change on a retry (and a 429 waits for its own countdown), a
 * 504 has already waited the proxy's full timeout; a network blip or 500/502 gets one
 * more try before the user sees an error.
 */
export function shouldRetry(failureCount: number, error: unknown): boolean {
  if (failureCount >= AUTOMATIC_RETRIES) return false;
  if (!isApiError(error)) return false;
  return (
    error.code === "NETWORK" ||
    error.code === "INTERNAL" ||
    error.code === "BAD_GATEWAY"
  );
}

export function createQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: {
      queries: {
        retry: shouldRetry,
        // Every request counts against the plan's rate limit: fetch only when asked.
        staleTime: 60_000,
        refetchOnWindowFocus: false,
        refetchOnReconnect: false,
      },
    },
  });
}
