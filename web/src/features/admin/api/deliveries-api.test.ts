import { describe, expect, it } from "vitest";
import { http } from "msw";
import { ALERT_PATHS, type Delivery } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import { alertMailQueryOptions } from "./alerts-api.ts";
import {
  deliveriesQueryOptions,
  useReplayDeliveryMutation,
} from "./deliveries-api.ts";

const failed: Delivery = {
  id: 7,
  channel: "email",
  to: "ops@example.com",
  timing: "instant",
  status: "failed",
  note: "Mailbox full",
  createdAt: "2026-11-28T09:00:00.000Z",
  nextAttemptAt: null,
  fleet: { id: "fleet-1", name: "North depot" },
  registration: "AB12CDE",
  alertId: 3,
  attempts: [],
};

describe("replaying a delivery", () => {
  it("marks the log of every status stale, as the delivery moves between them, and nothing else", async () => {
    server.use(
      http.post(ALERT_PATHS.replay(failed.id), () => json({ replayed: 1 })),
    );
    const told: unknown[] = [];
    const { queryClient, result } = renderMutation(() =>
      useReplayDeliveryMutation({
        onSuccess: (answer, delivery) => told.push([answer, delivery.id]),
      }),
    );
    const all = deliveriesQueryOptions().queryKey;
    const failing = deliveriesQueryOptions("failed").queryKey;
    const mail = alertMailQueryOptions().queryKey;
    queryClient.setQueryData(all, { deliveries: [failed] });
    queryClient.setQueryData(failing, { deliveries: [failed] });
    queryClient.setQueryData(mail, { digestTime: "07:00", emailOn: true });

    await result.current.mutateAsync(failed);

    expect(told).toEqual([[{ replayed: 1 }, failed.id]]);
    expect(isInvalidated(queryClient, all)).toBe(true);
    expect(isInvalidated(queryClient, failing)).toBe(true);
    expect(isInvalidated(queryClient, mail)).toBe(false);
  });
});
