// The insurance check feature, as the app's routes use it.
export { InsurancePage } from "./components/insurance-page.tsx";
