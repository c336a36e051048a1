// Renders the app's real routes at a URL, with a fresh QueryClient that never retries, signed
// in as SIGNED_IN_USER unless the test says otherwise.
import type { ComponentType, ReactNode } from "react";
import type { SessionAnswer } from "@vics/shared";
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { createMemoryRouter } from "react-router";
import { RouterProvider } from "react-router/dom";
import { vi } from "vitest";
import { AppProviders } from "../app/providers.tsx";
import { appRoutes } from "../app/routes.tsx";
import { SESSION_QUERY_KEY } from "../lib/session-user.ts";
import { serveSession, sessionFixture } from "./auth-fixtures.ts";

export interface RenderRouteOptions {
  fakeTimers?: boolean;
  /** Providers a feature's tests need around the routes (e.g. the fleet check's services). */
  wrapper?: ComponentType<{ children: ReactNode }>;
  /**
   * Who is signed in (null: nobody), known from the start as after a page's first answer, and
   * what the proxy answers when asked again. "ask": the page asks the proxy first, whose answer
   * is the default handler's or the test's own.
   */
  session?: SessionAnswer | null | "ask";
}

export function renderRoute(url: string, options: RenderRouteOptions = {}) {
  const queryClient = new QueryClient({
    defaultOptions: { queries: { retry: false } },
  });
  const session =
    options.session === undefined ? sessionFixture() : options.session;
  if (session !== "ask") {
    queryClient.setQueryData(SESSION_QUERY_KEY, session);
    serveSession(() => session);
  }
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
