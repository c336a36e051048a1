// Renders the app's real routes at a URL, with a fresh QueryClient that never retries.
import type { ComponentType, ReactNode } from "react";
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { vi } from "vitest";
import { AppProviders } from "../app/providers.tsx";
import { appRoutes } from "../app/routes.tsx";

export interface RenderRouteOptions {
  fakeTimers?: boolean;
  /** Providers a feature's tests need around the routes (e.g. the fleet check's services). */
  wrapper?: ComponentType<{ children: ReactNode }>;
}

export function renderRoute(url: string, options: RenderRouteOptions = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  const user = userEvent.setup(
    options.fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {},
  );
  const Wrapper = options.wrapper ?? (({ children }) => <>{children}</>);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Wrapper>
        <RouterProvider router={router} />
      </Wrapper>
    </AppProviders>,
  );
  return { ...view, user, router, queryClient };
}
