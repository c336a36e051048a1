// Every URL of the app and the view that answers it.
import { Navigate, type RouteObject } from "react-router";
import { CompliancePage } from "../features/compliance/index.ts";
import { InsurancePage } from "../features/insurance/index.ts";
import { appPaths } from "../lib/app-paths.ts";
import { CanonicalPath } from "./canonical-path.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { RouteErrorPage } from "./route-error-page.tsx";
import { AppLayout } from "./shell/app-layout.tsx";
import { PageLoading } from "./page-loading.tsx";

const fleet = () => import("../features/fleet/index.ts");

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
            lazy: async () => ({ Component: (await fleet()).FleetPage }),
          },
          {
            path: "fleet/runs/:runId",
            lazy: async () => ({ Component: (await fleet()).RunPage }),
          },
          { path: "*", Component: NotFoundPage },
        ],
      },
    ],
  },
];
