// Runs before every test file: jest-dom matchers, the msw server, clean state, and console.error fails a test.
import "@testing-library/jest-dom/vitest";
import { cleanup, configure } from "@testing-library/react";
import { afterAll, afterEach, beforeAll, beforeEach, vi } from "vitest";
import { resetRateLimit } from "../lib/rate-limit-store.ts";
import { resetFakeRecentChecks } from "./recent-checks-handlers.ts";
import { server } from "./server.ts";

// findBy* and waitFor wait for the app's own asynchronous steps: a page loaded on demand is
// compiled on a file's first render, which takes over the library's default second on a
// loaded two-core machine (a route test's first heading was seen at 1,024 ms). A wait that
// never ends still fails, well inside vitest's 5 s limit for the test.
configure({ asyncUtilTimeout: 3000 });

// jsdom has no layout, so it does not implement scrolling; the router scrolls on navigation.
window.scrollTo = () => undefined;

beforeAll(() => server.listen({ onUnhandledFrame: "error" }));

let consoleErrors: unknown[][] = [];
beforeEach(() => {
  consoleErrors = [];
  vi.spyOn(console, "error").mockImplementation((...args: unknown[]) => {
    consoleErrors.push(args);
  });
});

afterEach(() => {
  cleanup();
  server.resetHandlers();
  window.localStorage.clear();
  window.sessionStorage.clear();
  resetFakeRecentChecks();
  resetRateLimit();
  vi.useRealTimers();
  vi.restoreAllMocks();
  if (consoleErrors.length > 0) {
    const printed = consoleErrors.map((args) => args.map(String).join(" "));
    throw new Error(`console.error was called:\n${printed.join("\n")}`);
  }
});

afterAll(() => server.close());
