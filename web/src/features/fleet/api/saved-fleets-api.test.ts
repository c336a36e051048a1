import { describe, expect, it } from "vitest";
import { http } from "msw";
import { FLEET_PATHS, WATCH_PATHS } from "@vics/shared";
import { json } from "../../../testing/api-handlers.ts";
import {
  isInvalidated,
  renderMutation,
} from "../../../testing/render-mutation.tsx";
import { server } from "../../../testing/server.ts";
import { fleetSummary, savedFleet } from "../testing/watched-fixtures.ts";
import {
  fleetStatusQueryOptions,
  savedFleetQueryOptions,
  savedFleetsQueryOptions,
  useCheckFleetNowMutation,
  useSaveFleetMutation,
} from "./saved-fleets-api.ts";

const summary = fleetSummary(2);
const other = { ...fleetSummary(5), id: "fleet-other" };

describe("the saved fleets' writes", () => {
  it("saving a fleet marks the fleets' list stale, after the screen has had the answer", async () => {
    server.use(http.post(FLEET_PATHS.fleets, () => json(summary)));
    const seen: (boolean | undefined)[] = [];
    const { queryClient, result } = renderMutation(() =>
      useSaveFleetMutation({
        onSuccess: () => seen.push(isInvalidated(queryClient, listKey)),
      }),
    );
    const listKey = savedFleetsQueryOptions().queryKey;
    queryClient.setQueryData(listKey, { fleets: [] });

    const saved = await result.current.mutateAsync({
      name: summary.name,
      columns: [],
      vehicles: [],
    });

    expect(saved.id).toBe(summary.id);
    expect(seen).toEqual([false]);
    expect(isInvalidated(queryClient, listKey)).toBe(true);
  });

  it("checking a fleet now marks that fleet and its status stale, not another fleet", async () => {
    server.use(
      http.post(WATCH_PATHS.checkNow(summary.id), () =>
        json({ queued: 2, alreadyRunning: false }),
      ),
    );
    const { queryClient, result } = renderMutation(() =>
      useCheckFleetNowMutation(summary.id),
    );
    const fleetKey = savedFleetQueryOptions(summary.id).queryKey;
    const statusKey = fleetStatusQueryOptions(summary.id).queryKey;
    const otherKey = savedFleetQueryOptions(other.id).queryKey;
    queryClient.setQueryData(fleetKey, savedFleet(summary, []));
    queryClient.setQueryData(statusKey, { vehicles: [], checking: false });
    queryClient.setQueryData(otherKey, savedFleet(other, []));

    await expect(result.current.mutateAsync()).resolves.toEqual({
      queued: 2,
      alreadyRunning: false,
    });

    expect(isInvalidated(queryClient, fleetKey)).toBe(true);
    expect(isInvalidated(queryClient, statusKey)).toBe(true);
    expect(isInvalidated(queryClient, otherKey)).toBe(false);
  });
});
