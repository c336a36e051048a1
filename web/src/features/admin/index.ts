// User administration, the audit log, the data and the alerts pages, as the app's routes use
// them (admins only; loaded only when one of their pages is opened).
export { UsersPage } from "./components/users-page.tsx";
export { AuditPage } from "./components/audit-page.tsx";
export { DataPage } from "./components/data-page.tsx";
export { AlertsPage } from "./components/alerts-page.tsx";
