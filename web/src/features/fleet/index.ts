// The fleet check feature, as the app uses it. Nothing here is code of the feature itself: each
// page's code loads when it is first shown, on its own (a first visit to the fleet check does
// not fetch the run's results, the saved fleets or the timeline), and the saved runs' store
// when someone signs out and their saved runs are to go.
export type { SavedFleetChecks } from "./lib/saved-checks.ts";

/** Each page's module, loaded on demand. */
export const fleetPages = {
  fleet: () => import("./components/fleet-page.tsx"),
  run: () => import("./components/run-page.tsx"),
  savedFleets: () => import("./components/saved-fleets-page.tsx"),
  savedFleet: () => import("./components/saved-fleet-page.tsx"),
  alertRule: () => import("./components/alert-rule-page.tsx"),
  vehicleTimeline: () => import("./components/vehicle-timeline-page.tsx"),
  notifications: () => import("./components/notifications-page.tsx"),
};

/** The fleet runs and list saved in this browser, loaded on demand. */
export const loadSavedFleetChecks = async () =>
  (await import("./lib/saved-checks.ts")).savedFleetChecks;
