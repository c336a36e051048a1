// Every URL of the app and the view that answers it. The sign-in pages are open to all; every
// other page needs a session (SessionGate), and some a role (RoleGate).
import { Navigate, useRoutes, type RouteObject } from "react-router";
import { authPages, linkPages } from "../features/auth/index.ts";
import { adminPages } from "../features/admin/index.ts";
import { CompliancePage } from "../features/compliance/index.ts";
import { fleetPages } from "../features/fleet/index.ts";
import { InsurancePage } from "../features/insurance/index.ts";
import { appPaths } from "../lib/app-paths.ts";
import { CanonicalPath } from "./canonical-path.tsx";
import { lazyPage } from "./lazy-page.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { RoleGate } from "./role-gate.tsx";
import { RouteErrorBoundary } from "./route-error-boundary.tsx";
import { SessionGate } from "./session-gate.tsx";
import { AppLayout } from "./shell/app-layout.tsx";

// Only what every visit needs loads first: the checks. Each other page's code (the fleet check
// and its spreadsheet readers, the saved fleets, the admin pages) loads when it is first shown,
// page by page (decision 056).
const pages = {
  signIn: lazyPage(authPages, (m) => m.SignInPage),
  signInLink: lazyPage(linkPages, (m) => m.SignInLinkPage),
  setPassword: lazyPage(linkPages, (m) => m.SetPasswordPage),
  account: lazyPage(authPages, (m) => m.AccountPage),
  signOut: lazyPage(
    () => import("./sign-out-page.tsx"),
    (m) => m.SignOutPage,
  ),
  fleet: lazyPage(fleetPages.fleet, (m) => m.FleetPage),
  run: lazyPage(fleetPages.run, (m) => m.RunPage),
  savedFleets: lazyPage(fleetPages.savedFleets, (m) => m.SavedFleetsPage),
  savedFleet: lazyPage(fleetPages.savedFleet, (m) => m.SavedFleetPage),
  alertRule: lazyPage(fleetPages.alertRule, (m) => m.AlertRulePage),
  vehicleTimeline: lazyPage(
    fleetPages.vehicleTimeline,
    (m) => m.VehicleTimelinePage,
  ),
  notifications: lazyPage(fleetPages.notifications, (m) => m.NotificationsPage),
  users: lazyPage(adminPages.users, (m) => m.UsersPage),
  audit: lazyPage(adminPages.audit, (m) => m.AuditPage),
  data: lazyPage(adminPages.data, (m) => m.DataPage),
  sources: lazyPage(adminPages.sources, (m) => m.SourcesPage),
  alerts: lazyPage(adminPages.alerts, (m) => m.AlertsPage),
};

export const appRoutes: RouteObject[] = [
  {
    Component: AppLayout,
    children: [
      {
        Component: CanonicalPath,
        children: [
          // Open to all: signing in, and the one-time links that sign in.
          { path: "sign-in", Component: pages.signIn },
          { path: "sign-in/link", Component: pages.signInLink },
          { path: "account/set-password", Component: pages.setPassword },
          {
            Component: SessionGate,
            children: [
              { index: true, Component: InsurancePage },
              // "/vehicle" with no registration: the insurance check's form is at "/".
              {
                path: "vehicle",
                element: <Navigate replace to={appPaths.home()} />,
              },
              { path: "vehicle/:registration", Component: InsurancePage },
              { path: "compliance", Component: CompliancePage },
              { path: "compliance/:registration", Component: CompliancePage },
              {
                element: <RoleGate needs="fleet" />,
                children: [
                  { path: "fleet", Component: pages.fleet },
                  { path: "fleets", Component: pages.savedFleets },
                  { path: "notifications", Component: pages.notifications },
                  {
                    path: "fleets/vehicles/:registration",
                    Component: pages.vehicleTimeline,
                  },
                  { path: "fleets/:fleetId", Component: pages.savedFleet },
                  {
                    path: "fleets/:fleetId/alerts",
                    Component: pages.alertRule,
                  },
                ],
              },
              {
                element: <RoleGate needs="admin" />,
                children: [
                  { path: "admin/users", Component: pages.users },
                  { path: "admin/audit", Component: pages.audit },
                  { path: "admin/data", Component: pages.data },
                  { path: "admin/sources", Component: pages.sources },
                  { path: "admin/alerts", Component: pages.alerts },
                ],
              },
              { path: "account", Component: pages.account },
              { path: "sign-out", Component: pages.signOut },
              { path: "*", Component: NotFoundPage },
            ],
          },
          // A run paused by a session that ended stays on its page, which says so.
          {
            element: <SessionGate staysWhenSignedOut />,
            children: [
              {
                element: <RoleGate needs="fleet" />,
                children: [{ path: "fleet/runs/:runId", Component: pages.run }],
              },
            ],
          },
        ],
      },
    ],
  },
];

/** The page at the current address, or the error page when it fails to render. */
export function AppRoutes() {
  return <RouteErrorBoundary>{useRoutes(appRoutes)}</RouteErrorBoundary>;
}
