// The fleet (bulk) check feature, as the app's routes use it.
export { FleetPage } from "./components/fleet-page.tsx";
