import { describe, expect, it } from "vitest";
import { http } from "msw";
import { NOTIFICATION_PATHS } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import {
  notificationsQueryOptions,
  UNREAD_COUNT_KEY,
} from "../../../lib/use-notifications.ts";
import { useMarkReadMutation } from "./mark-read-api.ts";

describe("marking notifications read", () => {
  it("marks every list of notifications and the navigation's count stale", async () => {
    server.use(http.post(NOTIFICATION_PATHS.read, () => json({ unread: 0 })));
    const { queryClient, result } = renderMutation(() => useMarkReadMutation());
    const firstPage = notificationsQueryOptions({ page: 1 }).queryKey;
    const fleetPage = notificationsQueryOptions({
      page: 2,
      fleet: "f",
    }).queryKey;
    for (const key of [firstPage, fleetPage, UNREAD_COUNT_KEY])
      queryClient.setQueryData(key, { unread: 3 });

    await result.current.mutateAsync({ key: "all", body: {} });

    expect(isInvalidated(queryClient, firstPage)).toBe(true);
    expect(isInvalidated(queryClient, fleetPage)).toBe(true);
    expect(isInvalidated(queryClient, UNREAD_COUNT_KEY)).toBe(true);
  });
});
