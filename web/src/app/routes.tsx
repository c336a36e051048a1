// Every URL of the app and the view that answers it. The sign-in pages are open to all; every
// other page needs a session (SessionGate), and some a role (RouteAccess in `handle`).
import { Navigate, type RouteObject } from "react-router";
import { authPages, keepLinkToken } from "../features/auth/index.ts";
import { CompliancePage } from "../features/compliance/index.ts";
import { InsurancePage } from "../features/insurance/index.ts";
import { appPaths } from "../lib/app-paths.ts";
import { CanonicalPath } from "./canonical-path.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { RouteErrorPage } from "./route-error-page.tsx";
import type { RouteAccess } from "./route-access.ts";
import { SessionGate } from "./session-gate.tsx";
import { AppLayout } from "./shell/app-layout.tsx";
import { PageLoading } from "./page-loading.tsx";

const fleet = () => import("../features/fleet/index.ts");
const admin = () => import("../features/admin/index.ts");

const needs = (access: RouteAccess) => access;

export const appRoutes: RouteObject[] = [
  {
    Component: AppLayout,
    ErrorBoundary: RouteErrorPage,
    // Shown while a page that loads on demand (the fleet check) is fetched on a first visit.
    HydrateFallback: PageLoading,
    children: [
      {
        Component: CanonicalPath,
        children: [
          // Open to all: signing in, and the one-time links that sign in.
          {
            path: "sign-in",
            lazy: async () => ({ Component: (await authPages()).SignInPage }),
          },
          // A one-time link's token leaves the address bar before the page's code loads.
          {
            path: "sign-in/link",
            lazy: async () => {
              keepLinkToken();
              return { Component: (await authPages()).SignInLinkPage };
            },
          },
          {
            path: "account/set-password",
            lazy: async () => {
              keepLinkToken();
              return { Component: (await authPages()).SetPasswordPage };
            },
          },
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
              // The fleet check and its spreadsheet readers load only when a fleet page is opened.
              {
                path: "fleet",
                handle: needs({ needs: "fleet" }),
                lazy: async () => ({ Component: (await fleet()).FleetPage }),
              },
              {
                path: "fleet/runs/:runId",
                // A run paused by a session that ended stays on its page, which says so.
                handle: needs({ needs: "fleet", staysWhenSignedOut: true }),
                lazy: async () => ({ Component: (await fleet()).RunPage }),
              },
              {
                path: "fleets",
                handle: needs({ needs: "fleet" }),
                lazy: async () => ({
                  Component: (await fleet()).SavedFleetsPage,
                }),
              },
              {
                path: "notifications",
                handle: needs({ needs: "fleet" }),
                lazy: async () => ({
                  Component: (await fleet()).NotificationsPage,
                }),
              },
              {
                path: "fleets/vehicles/:registration",
                handle: needs({ needs: "fleet" }),
                lazy: async () => ({
                  Component: (await fleet()).VehicleTimelinePage,
                }),
              },
              {
                path: "fleets/:fleetId",
                handle: needs({ needs: "fleet" }),
                lazy: async () => ({
                  Component: (await fleet()).SavedFleetPage,
                }),
              },
              {
                path: "fleets/:fleetId/alerts",
                handle: needs({ needs: "fleet" }),
                lazy: async () => ({
                  Component: (await fleet()).AlertRulePage,
                }),
              },
              {
                path: "admin/users",
                handle: needs({ needs: "admin" }),
                lazy: async () => ({ Component: (await admin()).UsersPage }),
              },
              {
                path: "admin/audit",
                handle: needs({ needs: "admin" }),
                lazy: async () => ({ Component: (await admin()).AuditPage }),
              },
              {
                path: "admin/data",
                handle: needs({ needs: "admin" }),
                lazy: async () => ({ Component: (await admin()).DataPage }),
              },
              {
                path: "admin/alerts",
                handle: needs({ needs: "admin" }),
                lazy: async () => ({ Component: (await admin()).AlertsPage }),
              },
              {
                path: "account",
                lazy: async () => ({
                  Component: (await authPages()).AccountPage,
                }),
              },
              {
                path: "sign-out",
                lazy: async () => ({
                  Component: (await import("./sign-out-page.tsx")).SignOutPage,
                }),
              },
              { path: "*", Component: NotFoundPage },
            ],
          },
        ],
      },
    ],
  },
];
