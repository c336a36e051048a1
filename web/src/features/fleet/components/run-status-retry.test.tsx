import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { problemResponse } from "../testing/answers.ts";
import { savedRun } from "../testing/session.ts";
import { fakeUpstream } from "../testing/upstream.ts";
import { insured } from "../testing/fleet-fixtures.ts";
import type { RunStore } from "../lib/store/run-store.ts";
import {
  browserStore,
  fleetStore,
  renderFleet,
  setUpFleetTests,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };
const RETRY = "Retry the 2 vehicles not checked";

/** A finished run whose two vehicles got no answer (the service failed for them). */
async function finishedWithTwoNotChecked() {
  const store = await fleetStore();
  const run = savedRun(["AB12CDE", "UN51NSD", "MT15EXP"]);
  await store.saveRun(run);
  await store.saveResults(run.id, [insured("AB12CDE")]);
  let healthy = false;
  fakeUpstream({
    script: (call) =>
      !healthy && call.registrations.includes("MT15EXP")
        ? problemResponse(500, "INTERNAL")
        : undefined,
  });
  const rendered = renderFleet(`/fleet/runs/${run.id}`);
  await rendered.user.click(
    await screen.findByRole("button", { name: "Resume checking" }, SLOW),
  );
  await screen.findByText(
    "Finished: 3 vehicles checked. 2 vehicles could not be checked.",
    {},
    SLOW,
  );
  healthy = true;
  // The store the pages read through (each user's view passes its reads on to it).
  return { ...rendered, store: await browserStore() };
}

/** Holds the next session's start (it reads the saved run first) until `release` is called. */
function holdSessionStart(store: RunStore) {
  const load = store.loadRun.bind(store);
  let release = () => undefined as void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  vi.spyOn(store, "loadRun").mockImplementation(async (runId) => {
    await gate;
    return load(runId);
  });
  return { release: () => release() };
}

describe("retrying the vehicles not checked", () => {
  it("says the retry has started from the click, before its session is ready", async () => {
    const { user, store } = await finishedWithTwoNotChecked();
    const held = holdSessionStart(store);

    await user.click(screen.getByRole("button", { name: RETRY }));
    // The session is still being set up: the page says so already.
    const busy = screen.getByRole("button", { name: "Retrying…" });
    expect(busy).toHaveAttribute("aria-disabled", "true");
    expect(busy).toHaveFocus();
    expect(
      screen.getByText("Retrying 2 vehicles…", { selector: "p:not([role])" }),
    ).toBeVisible();
    expect(
      screen.getByText("Retrying 2 vehicles…", { selector: "[role=status]" }),
    ).toBeInTheDocument();

    held.release();
    expect(
      await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW),
    ).toBeVisible();
  });

  it("says so, with what to do, when the retry cannot start", async () => {
    const { user, store } = await finishedWithTwoNotChecked();
    vi.spyOn(store, "loadRun").mockRejectedValueOnce(
      new Error("The browser could not read the saved check"),
    );

    await user.click(screen.getByRole("button", { name: RETRY }));
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The retry could not be started: The browser could not read the saved check. Try again; if it keeps failing, reload the page.",
    );
    // The offer is back, and no "Retrying" is left behind.
    expect(screen.getByRole("button", { name: RETRY })).toBeVisible();
    expect(screen.queryByText(/Retrying/)).not.toBeInTheDocument();
  });
});
