// Marking notifications read (POST /api/notifications/read): here, not beside the queries in
// lib/use-notifications.ts, as that module is in the navigation's bundle and this one parses
// with the contract's schema.
import { NOTIFICATION_PATHS, UnreadCountSchema } from "@vics/shared";
import type { z } from "zod";
import { apiPost } from "../../../lib/api-client.ts";
import { NOTIFICATIONS_KEY } from "../../../lib/use-notifications.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
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
  return useRefreshingMutation(
    ({ body }: MarkRead) =>
      apiPost(NOTIFICATION_PATHS.read, body, UnreadCountSchema),
    NOTIFICATIONS_KEY,
    callbacks,
  );
}
