// A page that fails to render (or whose code fails to load, after a release) shows the error
// page instead of a blank one. Going to another address tries again, loading again the code of
// a page that failed to load.
import type { ReactNode } from "react";
import { ErrorBoundary } from "react-error-boundary";
import { useLocation } from "react-router";
import { retryFailedPages } from "./lazy-page.tsx";
import { RouteErrorPage } from "./route-error-page.tsx";

export function RouteErrorBoundary({ children }: { children: ReactNode }) {
  const { pathname } = useLocation();
  return (
    <ErrorBoundary
      resetKeys={[pathname]}
      onReset={retryFailedPages}
      fallbackRender={({ error }) => <RouteErrorPage error={error} />}
    >
      {children}
    </ErrorBoundary>
  );
}
