// Every URL of the app and the view that answers it.
import { Navigate, type RouteObject } from "react-router";
import { FleetPage } from "../features/fleet/index.ts";
import { CompliancePage } from "../features/compliance/index.ts";
import { InsurancePage } from "../features/insurance/index.ts";
import { appPaths } from "../lib/app-paths.ts";
import { CanonicalPath } from "./canonical-path.tsx";
import { NotFoundPage } from "./not-found-page.tsx";
import { RouteErrorPage } from "./route-error-page.tsx";
import { AppLayout } from "./shell/app-layout.tsx";

export const appRoutes: RouteObject[] = [
  {
    Component: AppLayout,
    ErrorBoundary: RouteErrorPage,
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
          { path: "fleet", Component: FleetPage },
          { path: "*", Component: NotFoundPage },
        ],
      },
    ],
  },
];
