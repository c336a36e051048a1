// The fleet check feature, as the app uses it (loaded only when a fleet page is opened, or when
// someone signs out and their saved runs are to go).
export { FleetPage } from "./components/fleet-page.tsx";
export { RunPage } from "./components/run-page.tsx";
export { SavedFleetsPage } from "./components/saved-fleets-page.tsx";
export { SavedFleetPage } from "./components/saved-fleet-page.tsx";
export { AlertRulePage } from "./components/alert-rule-page.tsx";
export { VehicleTimelinePage } from "./components/vehicle-timeline-page.tsx";
export { NotificationsPage } from "./components/notifications-page.tsx";
export { savedFleetChecks, type SavedFleetChecks } from "./lib/saved-checks.ts";
