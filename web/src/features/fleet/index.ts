// The fleet check feature, as the app's routes use it (loaded only when a fleet page is opened).
export { FleetPage } from "./components/fleet-page.tsx";
export { RunPage } from "./components/run-page.tsx";
