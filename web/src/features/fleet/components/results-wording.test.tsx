import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { fakeUpstream } from "../testing/upstream.ts";
import { insured } from "../testing/fleet-fixtures.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";
import { finishedRun } from "../testing/results.ts";
import { RunProgressView } from "./run-progress-view.tsx";

setUpFleetTests();

const noop = () => undefined;

describe("the fleet check's counts, in words", () => {
  it.each([
    [0, 1, "0 of 1 vehicle checked (0%)"],
    [1, 1, "1 of 1 vehicle checked (100%)"],
    [1, 2, "1 of 2 vehicles checked (50%)"],
  ])("progress %i of %i says %j", (done, total, words) => {
    render(
      <RunProgressView
        progress={{ phase: "running", total, done, notChecked: 0 }}
        paused={false}
        onPause={noop}
        onResume={noop}
        onStop={noop}
      />,
    );
    expect(screen.getByText(words)).toBeVisible();
  });

  it("says 1 row, not 1 rows, in the results", async () => {
    fakeUpstream();
    const run = await finishedRun([insured("AB12CDE")], false);
    renderFleet(`/fleet/runs/${run.id}`);
    expect(
      await screen.findByRole(
        "region",
        { name: "Showing 1 row, those needing action first." },
        { timeout: 10_000 },
      ),
    ).toBeVisible();
  });
});
