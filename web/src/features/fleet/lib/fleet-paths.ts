// The fleet check's own addresses.
export const fleetPaths = {
  start: () => "/fleet",
  run: (runId: string) => `/fleet/runs/${encodeURIComponent(runId)}`,
} as const;
