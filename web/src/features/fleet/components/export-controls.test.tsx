import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it, vi } from "vitest";
import type { ExportWorkerFactory } from "../lib/export/export-client.ts";
import type {
  ExportRequest,
  ExportResponse,
} from "../lib/export/export-protocol.ts";
import { RESULTS, ROWS, RUN, TODAY } from "../lib/export/export-test-run.ts";
import type { SavedRun } from "../lib/fleet-types.ts";
import { ExportControls } from "./export-controls.tsx";

const SAVED: SavedRun = {
  ...RUN,
  id: "run-1",
  name: "fleet.xlsx",
  createdAt: "2026-11-23T09:00:00.000Z",
  updatedAt: "2026-11-23T09:05:00.000Z",
  status: "finished",
  registrationColumn: "Registration",
  rows: ROWS,
};

/** A worker the test answers for; it records what it was sent and whether it was stopped. */
function heldWorker() {
  const held = {
    sent: [] as ExportRequest[],
    stopped: false,
    answer: (_response: ExportResponse) => {},
    crash: () => {},
  };
  const factory: ExportWorkerFactory = (answer, crash) => {
    held.answer = answer;
    held.crash = crash;
    return {
      send: (request) => held.sent.push(request),
      stop: () => {
        held.stopped = true;
      },
    };
  };
  return { held, factory };
}

function captureDownloads() {
  const names: string[] = [];
  URL.createObjectURL = vi.fn(() => "blob:1");
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    names.push(this.download);
  });
  return names;
}

function renderControls(createWorker?: ExportWorkerFactory) {
  render(
    <ExportControls
      run={SAVED}
      results={RESULTS}
      shownRows={ROWS}
      today={TODAY}
      createWorker={createWorker}
    />,
  );
}

describe("ExportControls", () => {
  it("shows how far the Excel file has got, and saves it when it is ready", async () => {
    const names = captureDownloads();
    const { held, factory } = heldWorker();
    renderControls(factory);
    await userEvent.click(
      screen.getByRole("button", { name: "Download Excel (.xlsx)" }),
    );
    await waitFor(() => expect(held.sent.at(-1)?.kind).toBe("end"));
    // The rows go in their chunks, not a second time with the run.
    expect(held.sent[0]).toMatchObject({ kind: "start", total: ROWS.length });
    expect(held.sent[0]).not.toHaveProperty("run.rows");
    act(() => held.answer({ kind: "progress", percent: 40 }));
    expect(screen.getByText("Preparing Excel file… 40%")).toBeVisible();
    expect(
      screen.getByRole("progressbar", { name: "Preparing Excel file" }),
    ).toHaveAttribute("value", "40");
    act(() => held.answer({ kind: "done", file: new Blob(["x"]) }));
    await waitFor(() =>
      expect(names).toEqual(["vics-fleet-check-fleet-2026-11-23.xlsx"]),
    );
    // The download's link in the page ends the wait above; React shows the file ready after it.
    await waitFor(() => {
      expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
      expect(screen.getByRole("status")).toHaveTextContent("Excel file ready");
    });
  });

  it("cancels: the worker ends, nothing is saved, and focus goes back to the download button", async () => {
    const names = captureDownloads();
    const { held, factory } = heldWorker();
    renderControls(factory);
    await userEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    act(() => held.answer({ kind: "progress", percent: 10 }));
    expect(screen.getByText("Preparing CSV file… 10%")).toBeVisible();
    await userEvent.click(
      screen.getByRole("button", { name: "Cancel download" }),
    );
    expect(held.stopped).toBe(true);
    expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
    expect(screen.getByRole("status")).toHaveTextContent(
      "Download cancelled. No file was saved.",
    );
    expect(screen.getByRole("button", { name: "Download CSV" })).toHaveFocus();
    expect(names).toEqual([]);
  });

  it("says what to do when the file cannot be made", async () => {
    captureDownloads();
    const { held, factory } = heldWorker();
    renderControls(factory);
    await userEvent.click(
      screen.getByRole("button", { name: "Download Excel (.xlsx)" }),
    );
    act(() => held.crash());
    expect(await screen.findByRole("alert")).toHaveTextContent(
      "The file could not be made. Try again, or download the other format.",
    );
    expect(
      screen.getByRole("button", { name: "Download Excel (.xlsx)" }),
    ).not.toHaveAttribute("aria-disabled");
  });

  it("makes the CSV in-thread where there is no Worker", async () => {
    const names = captureDownloads();
    renderControls();
    await userEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() =>
      expect(names).toEqual(["vics-fleet-check-fleet-2026-11-23.csv"]),
    );
  });
});
