// Marking notifications read (POST /api/notifications/read): here, not beside the queries in
// lib/use-notifications.ts, as that module is in the navigation's bundle and this one parses
// with the contract's schema.
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { NOTIFICATION_PATHS, UnreadCountSchema } from "@vics/shared";
import type { z } from "zod";
import { apiPost } from "../../../lib/api-client.ts";
import { NOTIFICATIONS_KEY } from "../../../lib/use-notifications.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";

type UnreadCount = z.infer<typeof UnreadCountSchema>;

/** Marking read, as many as `body` names: `key` says which button asked (it shows it is busy). */
export interface MarkRead {
  key: string;
  body: object;
}

/** Every list and the navigation's count refetch; the mutation is pending until they have. */
export function useMarkReadMutation(
  callbacks: WriteCallbacks<UnreadCount, MarkRead> = {},
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ body }: MarkRead) =>
      apiPost(NOTIFICATION_PATHS.read, body, UnreadCountSchema),
    onSuccess: (answer, variables) => {
      callbacks.onSuccess?.(answer, variables);
      return queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY });
    },
    onError: callbacks.onError,
  });
}
