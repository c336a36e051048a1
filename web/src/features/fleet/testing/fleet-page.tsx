// Test support for the fleet pages: the real routes with the fleet's services swapped at their
// seam: runs saved on fake IndexedDB (a fresh database per test), lists parsed in-thread (jsdom
// has no Worker), quick retries; the vehicle service is the scripted fake upstream (msw).
import { screen } from "@testing-library/react";
import { IDBFactory } from "fake-indexeddb";
import type { ReactNode } from "react";
import { afterEach, beforeEach, vi } from "vitest";
import { apiFleetClient } from "../api/fleet-client.ts";
import type { FleetServices } from "../lib/fleet-services.ts";
import { FleetServicesContext } from "../lib/fleet-services.ts";
import { inThreadParseWorker } from "../lib/parse/in-thread-parse-worker.ts";
import { resetSessions } from "../lib/run-registry.ts";
import { ownedRunStore } from "../lib/store/owned-run-store.ts";
import { openRunStore, type RunStore } from "../lib/store/run-store.ts";
import { SIGNED_IN_USER } from "../../../testing/auth-fixtures.ts";
import {
  renderRoute,
  type RenderRouteOptions,
} from "../../../testing/render-route.tsx";

let services: FleetServices & { store: Promise<RunStore> };

/** Call once at the top of a test file: a fresh database and no sessions for every test. */
export function setUpFleetTests(): void {
  beforeEach(() => {
    globalThis.indexedDB = new IDBFactory();
    const store = openRunStore();
    services = {
      store,
      openStore: () => store.then((opened) => ({ store: opened })),
      client: apiFleetClient,
      parseWorker: inThreadParseWorker,
      tuning: { baseDelayMs: 1, maxDelayMs: 5, progressIntervalMs: 0 },
    };
    // jsdom has no layout: give the results table's scroller a size, so rows are rendered.
    vi.spyOn(HTMLElement.prototype, "clientHeight", "get").mockReturnValue(600);
    vi.spyOn(HTMLElement.prototype, "clientWidth", "get").mockReturnValue(1000);
  });
  afterEach(async () => {
    resetSessions();
    (await services.store).close();
  });
}

/** Tunes the run engine for one test (e.g. one registration per request, to watch a run go). */
export function tuneFleetRuns(tuning: FleetServices["tuning"]): void {
  services.tuning = { ...services.tuning, ...tuning };
}

/** The runs of the signed-in user (SIGNED_IN_USER), as the pages see them. */
export async function fleetStore(): Promise<RunStore> {
  return ownedRunStore(await services.store, SIGNED_IN_USER.id);
}

/** Every run in this browser's store, whoever made it. */
export function browserStore(): Promise<RunStore> {
  return services.store;
}

export function renderFleet(
  url: string,
  options: Omit<RenderRouteOptions, "wrapper"> = {},
) {
  const wrapper = ({ children }: { children: ReactNode }) => (
    <FleetServicesContext value={services}>{children}</FleetServicesContext>
  );
  return renderRoute(url, { ...options, wrapper });
}

/** Pastes `text` (user-event keys: "{Enter}" for a new line) and continues to "Check your list". */
export async function reviewPasted(text: string) {
  sessionStorage.clear(); // no text kept from the test before
  const view = renderFleet("/fleet");
  await view.user.type(
    await screen.findByRole(
      "textbox",
      { name: "Paste registrations" },
      { timeout: 5000 },
    ),
    text,
  );
  await view.user.click(screen.getByRole("button", { name: "Continue" }));
  await screen.findByRole(
    "heading",
    { name: "Check your list" },
    { timeout: 5000 },
  );
  return view;
}

/** The value beside a term of a summary list (`<dt>`/`<dd>`). */
export function summaryValue(term: string): string {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}
