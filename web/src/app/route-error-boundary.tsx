// A page that fails to render (or whose code fails to load, after a release) shows the error
// page instead of a blank one. Going to another address tries again.
import type { ReactNode } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { useLocation } from "react-router";
import { RouteErrorPage } from "./route-error-page.tsx";

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKeys={[pathname]}
      fallbackRender={({ error }) => <RouteErrorPage error={error} />}
    >
      {children}
    </ErrorBoundary>
  );
}
