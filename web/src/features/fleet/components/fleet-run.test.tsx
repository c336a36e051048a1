import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { problemResponse } from "../testing/answers.ts";
import { savedRun } from "../testing/session.ts";
import { fakeUpstream } from "../testing/upstream.ts";
import { insured } from "../testing/fleet-fixtures.ts";
import {
  fleetStore,
  renderFleet,
  setUpFleetTests,
  tuneFleetRuns,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

/** A run saved as a closed tab leaves it: status "running", one vehicle answered of three. */
async function stoppedRun(checkCompliance = false) {
  const store = await fleetStore();
  const run = savedRun(["AB12CDE", "UN51NSD", "MT15EXP"], checkCompliance);
  await store.saveRun(run);
  await store.saveResults(run.id, [insured("AB12CDE")]);
  return run;
}

function bodyRows() {
  return within(screen.getByRole("table")).getAllByRole("row").slice(1);
}

describe("a fleet run's page", () => {
  it("offers to resume a run that stopped, and checks only what is left", async () => {
    const run = await stoppedRun();
    const upstream = fakeUpstream({ notInsured: ["UN51NSD"] });
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    expect(
      // The file's first render opens the store and loads the page's code: it may take a while.
      await screen.findByRole(
        "heading",
        { name: "This check stopped before it finished" },
        SLOW,
      ),
    ).toBeVisible();
    expect(
      screen.getByText(/^1 vehicle of 3 checked; 2 vehicles still to check\./),
    ).toBeVisible();
    // What was answered already shows.
    expect(screen.getByRole("table")).toHaveTextContent("AB12 CDE");

    await user.click(screen.getByRole("button", { name: "Resume checking" }));
    expect(
      await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW),
    ).toBeVisible();
    expect(upstream.requestsFor("AB12CDE")).toBe(0);
    expect(upstream.requestsFor("UN51NSD")).toBe(1);
    const saved = await (await fleetStore()).loadRun(run.id);
    expect(saved?.run.status).toBe("finished");
    expect([...(saved?.results.keys() ?? [])].sort()).toEqual([
      "AB12CDE",
      "MT15EXP",
      "UN51NSD",
    ]);
  });

  it("lists an unfinished run on the fleet page, and resumes it from there", async () => {
    const run = await stoppedRun();
    fakeUpstream();
    const { user, router } = renderFleet("/fleet");
    const notice = await screen.findByRole("region", {
      name: "Unfinished check",
    });
    expect(notice).toHaveTextContent("1 vehicle checked so far");
    await user.click(
      within(notice).getByRole("button", { name: /Resume checking/ }),
    );
    await waitFor(() =>
      expect(router.state.location.pathname).toBe(`/fleet/runs/${run.id}`),
    );
    expect(
      await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW),
    ).toBeVisible();
  });

  it("retries only the vehicles that could not be checked", async () => {
    const run = await stoppedRun();
    let healthy = false;
    const upstream = fakeUpstream({
      script: (call) =>
        !healthy && call.registrations.includes("MT15EXP")
          ? problemResponse(500, "INTERNAL")
          : undefined,
    });
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    await user.click(
      await screen.findByRole("button", { name: "Resume checking" }),
    );
    expect(
      await screen.findByText(
        "Finished: 3 vehicles checked. 2 vehicles could not be checked.",
        {},
        SLOW,
      ),
    ).toBeVisible();
    const before = upstream.requestsFor("UN51NSD");

    healthy = true;
    await user.click(
      screen.getByRole("button", { name: "Retry the 2 vehicles not checked" }),
    );
    expect(
      await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW),
    ).toBeVisible();
    // Only the two not checked were sent again, each once.
    expect(upstream.requestsFor("UN51NSD")).toBe(before + 1);
    expect(upstream.requestsFor("AB12CDE")).toBe(0);
  });

  it("filters, searches and sorts the results", async () => {
    const run = await stoppedRun();
    fakeUpstream({ notInsured: ["UN51NSD"] });
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    await user.click(
      await screen.findByRole("button", { name: "Resume checking" }),
    );
    await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW);

    await user.selectOptions(
      screen.getByRole("combobox", { name: "Show" }),
      "Not insured",
    );
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]).toHaveTextContent("UN51 NSD");
    expect(
      screen.getByText("Showing 1 of 6 rows.", { selector: "p:not([role])" }),
    ).toBeVisible();
    // Said once to a screen reader, when the filter changed.
    expect(
      screen.getByText("Showing 1 of 6 rows.", { selector: "[role=status]" }),
    ).toBeInTheDocument();

    await user.selectOptions(
      screen.getByRole("combobox", { name: "Show" }),
      "All rows",
    );
    await user.type(screen.getByRole("searchbox", { name: "Search" }), "mt15");
    await waitFor(() => expect(bodyRows()).toHaveLength(1));
    expect(bodyRows()[0]).toHaveTextContent("MT15 EXP");

    await user.clear(screen.getByRole("searchbox", { name: "Search" }));
    const rowHeader = screen.getByRole("columnheader", { name: /^Row/ });
    await user.click(within(rowHeader).getByRole("button"));
    expect(rowHeader).toHaveAttribute("aria-sort", "ascending");
    await waitFor(() =>
      expect(
        bodyRows().map((row) => row.querySelector("th")?.textContent),
      ).toEqual(["2", "3", "4", "900", "901", "902"]),
    );
    await user.click(within(rowHeader).getByRole("button"));
    expect(rowHeader).toHaveAttribute("aria-sort", "descending");
  });

  it("shows compliance when the run checks it", async () => {
    const run = await stoppedRun(true);
    fakeUpstream({ nonCompliant: ["MT15EXP"] });
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    await user.click(
      await screen.findByRole("button", { name: "Resume checking" }),
    );
    await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW);
    expect(
      screen.getByRole("columnheader", { name: "Compliance" }),
    ).toBeVisible();
    const summary = screen.getByRole("region", { name: "Summary" });
    expect(
      within(summary).getByText("Not compliant").nextElementSibling,
    ).toHaveTextContent(/^1/);
  });

  it("pauses, resumes and stops a run, and says where it stands", async () => {
    const run = await stoppedRun();
    tuneFleetRuns({ chunkSize: 1, concurrency: 1 });
    // The first request is held until the test lets it go, so Pause comes while it is out.
    const releases: Array<() => void> = [];
    const holds = [0, 1].map(
      () => new Promise<void>((resolve) => releases.push(resolve)),
    );
    const release = () => releases.shift()?.();
    let arrived = 0;
    fakeUpstream({
      async script() {
        arrived += 1;
        await holds[arrived - 1];
        return undefined;
      },
    });
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    await user.click(
      await screen.findByRole("button", { name: "Resume checking" }),
    );
    const progress = await screen.findByRole("progressbar", {
      name: "Vehicles checked",
    });
    expect(progress).toHaveAttribute("max", "3");
    await vi.waitFor(() => expect(arrived).toBe(1));
    await user.click(screen.getByRole("button", { name: "Pause" }));
    expect(
      await screen.findByRole("heading", { name: "Paused" }),
    ).toBeVisible();
    expect(
      screen.getByText("Paused. Nothing more is sent until you resume."),
    ).toBeInTheDocument();

    // What was out comes back and counts; nothing more goes while paused.
    release();
    expect(
      await screen.findByText("2 of 3 vehicles checked (66%)"),
    ).toBeVisible();
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(arrived).toBe(1);
    expect((await (await fleetStore()).loadRun(run.id))?.run.status).toBe(
      "paused",
    );

    await user.click(screen.getByRole("button", { name: "Resume" }));
    // The second request goes, and is held: Stop comes while it is out.
    await vi.waitFor(() => expect(arrived).toBe(2));
    await user.click(screen.getByRole("button", { name: "Stop checking" }));
    // The answer already asked for is awaited and kept, so resuming does not ask for it again.
    expect(screen.getByRole("heading", { name: "Stopping" })).toHaveFocus();
    expect(
      screen.queryByRole("button", { name: "Stop checking" }),
    ).not.toBeInTheDocument();
    release();
    // The last vehicle's answer came back after the stop: nothing is left, so it has finished.
    const finished = await screen.findByRole("heading", {
      name: "Finished: 3 vehicles checked.",
    });
    // Stopping moves focus to the state it leads to.
    expect(finished).toHaveFocus();
    expect((await (await fleetStore()).loadRun(run.id))?.run.status).toBe(
      "finished",
    );
  });

  it("starts one session however quickly Resume is pressed twice", async () => {
    const run = await stoppedRun();
    const upstream = fakeUpstream();
    const { user } = renderFleet(`/fleet/runs/${run.id}`);
    const resume = await screen.findByRole("button", {
      name: "Resume checking",
    });
    await user.dblClick(resume);
    expect(
      await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW),
    ).toBeVisible();
    expect(upstream.requestsFor("UN51NSD")).toBe(1);
    expect(upstream.requestsFor("MT15EXP")).toBe(1);
  });

  it("says so when the run is not kept in this browser", async () => {
    renderFleet("/fleet/runs/no-such-run");
    expect(
      await screen.findByRole("heading", { name: "Fleet check not found" }),
    ).toBeVisible();
    expect(
      screen.getByRole("link", { name: "Start a fleet check" }),
    ).toHaveAttribute("href", "/fleet");
  });

  it("lists a run the user stopped as stopped and resumable, not cancelled", async () => {
    const run = await stoppedRun();
    await (await fleetStore()).updateRun(run.id, { status: "cancelled" });
    renderFleet("/fleet");
    const table = await screen.findByRole("table");
    expect(within(table).getAllByRole("row")[1]).toHaveTextContent(
      "Stopped: can be resumed",
    );
    expect(within(table).queryByText(/Cancelled/)).not.toBeInTheDocument();
  });

  it("deletes a previous run after asking", async () => {
    const run = await stoppedRun();
    const { user } = renderFleet("/fleet");
    const table = await screen.findByRole("table");
    await user.click(within(table).getByRole("button", { name: /^Delete/ }));
    await user.click(
      within(table).getByRole("button", { name: /Yes, delete/ }),
    );
    await waitFor(() =>
      expect(screen.queryByRole("table")).not.toBeInTheDocument(),
    );
    expect(await (await fleetStore()).loadRun(run.id)).toBeUndefined();
  });
});
