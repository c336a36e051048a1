// The alerts' delivery log, for admins: every delivery, or those of one status, and a failed or
// dropped one sent again, after which every status's list is read again. Parsed with the shared
// contract.
import { queryOptions } from "@tanstack/react-query";
import {
  ALERT_PATHS,
  DeliveryLogSchema,
  type Delivery,
  type DeliveryStatus,
} from "@vics/shared";
import { z } from "zod";
import { apiGet, apiPost } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";
import { ALERTS_KEY } from "./alerts-api.ts";

/** Every status's list is under it: a replay moves a delivery from one to another. */
const DELIVERIES_KEY = [...ALERTS_KEY, "deliveries"] as const;

/** `status`: only the deliveries in it; all when undefined. */
export function deliveriesQueryOptions(status?: DeliveryStatus) {
  return queryOptions({
    queryKey: [...DELIVERIES_KEY, status ?? "all"],
    queryFn: ({ signal }) =>
      apiGet(
        status
          ? `${ALERT_PATHS.deliveries}?${new URLSearchParams({ status }).toString()}`
          : ALERT_PATHS.deliveries,
        DeliveryLogSchema,
        { signal },
      ),
    staleTime: 0,
  });
}

function replayDelivery(id: number) {
  return apiPost(
    ALERT_PATHS.replay(id),
    undefined,
    z.object({ replayed: z.number() }),
  );
}

/** Pending until the lists have been read again. */
export function useReplayDeliveryMutation(
  callbacks: WriteCallbacks<{ replayed: number }, Delivery> = {},
) {
  return useRefreshingMutation(
    (delivery: Delivery) => replayDelivery(delivery.id),
    DELIVERIES_KEY,
    callbacks,
  );
}
