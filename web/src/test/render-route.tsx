// Renders the app's real routes at a URL, with a fresh QueryClient that never retries.
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { vi } from "vitest";
import { AppProviders } from "../app/providers.tsx";
import { appRoutes } from "../app/routes.tsx";

export function renderRoute(
  url: string,
  options: { fakeTimers?: boolean } = {},
) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  const router = createMemoryRouter(appRoutes, { initialEntries: [url] });
  const user = userEvent.setup(
    options.fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {},
  );
  const view = render(
    <AppProviders queryClient={queryClient}>
      <RouterProvider router={router} />
    </AppProviders>,
  );
  return { ...view, user, router, queryClient };
}
