// The fleet check's own addresses, and the team's saved fleets.
export const fleetPaths = {
  start: () => "/fleet",
  run: (runId: string) => `/fleet/runs/${encodeURIComponent(runId)}`,
  savedFleets: () => "/fleets",
  savedFleet: (fleetId: string) => `/fleets/${encodeURIComponent(fleetId)}`,
  alertRule: (fleetId: string) =>
    `/fleets/${encodeURIComponent(fleetId)}/alerts`,
  watchedVehicle: (registration: string) =>
    `/fleets/vehicles/${encodeURIComponent(registration)}`,
} as const;
