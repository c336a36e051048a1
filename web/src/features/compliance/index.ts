// The compliance feature, as the app's routes use it.
export { CompliancePage } from "./components/compliance-page.tsx";
