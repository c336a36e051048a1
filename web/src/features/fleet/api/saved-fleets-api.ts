// The team's saved fleets (the proxy's /api/fleets), parsed with the shared contract: the list,
// one fleet's status as its re-checks left it, saving a run as a fleet, and "check now". Each
// write is a mutation that refreshes the queries it changes, by their queryOptions' keys.
import { queryOptions } from "@tanstack/react-query";
import {
  CheckNowSchema,
  FLEET_PATHS,
  FleetDifferenceSchema,
  FleetListPageSchema,
  FleetStatusSchema,
  FleetSummarySchema,
  SavedFleetSchema,
  VehicleHistorySchema,
  WATCH_PATHS,
  type FleetDifference,
  type FleetSummary,
  type FleetVehicle,
} from "@vics/shared";
import { apiGet, apiPost, apiPut } from "../../../lib/api-client.ts";
import { useRefreshingMutation } from "../../../lib/use-refreshing-mutation.ts";
import type { WriteCallbacks } from "../../../lib/write-callbacks.ts";
import type { z } from "zod";

type CheckNow = z.infer<typeof CheckNowSchema>;

export function savedFleetsQueryOptions() {
  return queryOptions({
    queryKey: ["fleets"],
    queryFn: ({ signal }) =>
      apiGet(FLEET_PATHS.fleets, FleetListPageSchema, { signal }),
  });
}

export function savedFleetQueryOptions(fleetId: string) {
  return queryOptions({
    queryKey: ["fleets", fleetId],
    queryFn: ({ signal }) =>
      apiGet(FLEET_PATHS.fleet(fleetId), SavedFleetSchema, { signal }),
  });
}

/** With `changedSince` (a UK date, YYYY-MM-DD), each vehicle also has what moved since then. */
export function fleetStatusQueryOptions(
  fleetId: string,
  changedSince?: string,
) {
  return queryOptions({
    queryKey: ["fleets", fleetId, "status", changedSince ?? "now"],
    queryFn: ({ signal }) =>
      apiGet(WATCH_PATHS.status(fleetId, changedSince), FleetStatusSchema, {
        signal,
      }),
  });
}

export interface NewSavedFleet {
  name: string;
  columns: string[];
  vehicles: FleetVehicle[];
}

function saveFleet(fleet: NewSavedFleet) {
  return apiPost(FLEET_PATHS.fleets, fleet, FleetSummarySchema);
}

/** `alreadyRunning`: a check of this fleet was already under way, and no second one started. */
function checkFleetNow(fleetId: string) {
  return apiPost(WATCH_PATHS.checkNow(fleetId), undefined, CheckNowSchema);
}

export function vehicleHistoryQueryOptions(registration: string) {
  return queryOptions({
    queryKey: ["fleets", "vehicles", registration],
    queryFn: ({ signal }) =>
      apiGet(WATCH_PATHS.vehicle(registration), VehicleHistorySchema, {
        signal,
      }),
  });
}

export type FleetListBody = Omit<NewSavedFleet, "name">;

export function fleetDifference(fleetId: string, list: FleetListBody) {
  return apiPost(FLEET_PATHS.difference(fleetId), list, FleetDifferenceSchema);
}

function applyFleetList(fleetId: string, list: FleetListBody, version: number) {
  return apiPut(
    FLEET_PATHS.vehicles(fleetId),
    { ...list, version },
    FleetDifferenceSchema,
  );
}

/** Saving a list as a fleet; the fleets' list (and every fleet's queries under it) refetch. */
export function useSaveFleetMutation(
  callbacks: WriteCallbacks<FleetSummary, NewSavedFleet> = {},
) {
  return useRefreshingMutation(
    saveFleet,
    savedFleetsQueryOptions().queryKey,
    callbacks,
  );
}

export interface FleetListUpdate {
  list: FleetListBody;
  /** The fleet's version the difference was worked out from. */
  version: number;
}

/** A new list applied to a fleet; the list of fleets refetches too, as its counts change. */
export function useApplyFleetListMutation(
  fleetId: string,
  callbacks: WriteCallbacks<FleetDifference, FleetListUpdate> = {},
) {
  return useRefreshingMutation(
    ({ list, version }: FleetListUpdate) =>
      applyFleetList(fleetId, list, version),
    savedFleetsQueryOptions().queryKey,
    callbacks,
  );
}

/** "Check this fleet now": the fleet and its status refetch, which then follow the check. */
export function useCheckFleetNowMutation(
  fleetId: string,
  callbacks: WriteCallbacks<CheckNow, void> = {},
) {
  return useRefreshingMutation(
    () => checkFleetNow(fleetId),
    savedFleetQueryOptions(fleetId).queryKey,
    callbacks,
  );
}
