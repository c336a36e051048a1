// Renders the app's real routes at a URL, with a fresh QueryClient that never retries, signed
// in as SIGNED_IN_USER unless the test says otherwise.
import { useLayoutEffect, type ComponentType, type ReactNode } from "react";
import type { SessionAnswer } from "@vics/shared";
import { QueryClient } from "@tanstack/react-query";
import { render } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import {
  MemoryRouter,
  useLocation,
  useNavigate,
  useNavigationType,
  type Location,
  type NavigationType,
  type To,
} from "react-router";
import { vi } from "vitest";
import { AppProviders } from "../app/providers.tsx";
import { AppRoutes } from "../app/routes.tsx";
import { SESSION_QUERY_KEY } from "../lib/session-user.ts";
import { serveSession, sessionFixture } from "./auth-fixtures.ts";
import { moveTo } from "./test-navigator.tsx";

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

/** Where the test's router is, and a way to move it as a link or Back would. */
export interface TestRouter {
  state: { location: Location; historyAction: NavigationType };
  navigate: (to: To | number) => Promise<void>;
}

interface ProbeProps {
  onRender: (router: TestRouter) => void;
}

/** Tells the test where the router is each time the address changes. */
function RouterProbe({ onRender }: ProbeProps) {
  const location = useLocation();
  const historyAction = useNavigationType();
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onRender({
      state: { location, historyAction },
      navigate: (to) => moveTo(navigate, to),
    });
  }, [onRender, location, historyAction, navigate]);
  return null;
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
  const router = {} as TestRouter;
  const follow = (now: TestRouter) => Object.assign(router, now);
  const user = userEvent.setup(
    options.fakeTimers ? { advanceTimers: vi.advanceTimersByTime } : {},
  );
  const Wrapper = options.wrapper ?? (({ children }) => <>{children}</>);
  const view = render(
    <AppProviders queryClient={queryClient}>
      <Wrapper>
        <MemoryRouter initialEntries={[url]}>
          <AppRoutes />
          <RouterProbe onRender={follow} />
        </MemoryRouter>
      </Wrapper>
    </AppProviders>,
  );
  return { ...view, user, router, queryClient };
}
