import { act, render, screen, waitFor } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { describe, expect, it } from "vitest";
import { captureDownloads } from "../../../testing/downloads.ts";
import type { ExportWorkerFactory } from "../lib/export/export-client.ts";
import type {
  ExportRequest,
  ExportResponse,
} from "../lib/export/export-protocol.ts";
import {
  lapsedVan,
  motExpiredTruck,
  unknownCar,
} from "../testing/watched-fixtures.ts";
import { watchedEntries } from "../lib/watched-view.ts";
import { WatchedExportControls } from "./watched-export-controls.tsx";

const ALL = watchedEntries([lapsedVan, unknownCar, motExpiredTruck]);

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

function renderControls(createWorker?: ExportWorkerFactory) {
  render(
    <WatchedExportControls
      fleetName="Vans"
      columns={["Driver"]}
      all={ALL}
      shown={ALL.slice(0, 1)}
      today="2026-11-27"
      createWorker={createWorker}
    />,
  );
}

describe("WatchedExportControls", () => {
  it("sends the vehicles to the worker, shows how far the file has got, and saves it", async () => {
    const saved = captureDownloads();
    const { held, factory } = heldWorker();
    renderControls(factory);
    await userEvent.click(
      screen.getByRole("button", { name: "Download Excel (.xlsx)" }),
    );
    await waitFor(() => expect(held.sent.at(-1)?.kind).toBe("end"));
    // The vehicles, not a table the page built.
    expect(held.sent[0]).toEqual({
      kind: "start-watched",
      format: "xlsx",
      fleet: { name: "Vans", columns: ["Driver"], since: undefined },
      total: ALL.length,
    });
    expect(
      held.sent.flatMap((request) =>
        request.kind === "entries" ? request.entries : [],
      ),
    ).toEqual(ALL);
    act(() => held.answer({ kind: "progress", percent: 40 }));
    expect(screen.getByText("Preparing Excel file… 40%")).toBeVisible();
    expect(
      screen.getByRole("progressbar", { name: "Preparing Excel file" }),
    ).toHaveAttribute("value", "40");
    act(() => held.answer({ kind: "done", file: new Blob(["x"]) }));
    await waitFor(() =>
      expect(saved.map(({ name }) => name)).toEqual([
        "vics-fleet-Vans-2026-11-27.xlsx",
      ]),
    );
    await waitFor(() => {
      expect(screen.queryByRole("progressbar")).not.toBeInTheDocument();
      expect(screen.getAllByRole("status")[0]).toHaveTextContent(
        "Excel file ready",
      );
    });
  });

  it("cancels: the worker ends, nothing is saved, and focus goes back to the download button", async () => {
    const saved = captureDownloads();
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
    expect(screen.getAllByRole("status")[0]).toHaveTextContent(
      "Download cancelled. No file was saved.",
    );
    expect(screen.getByRole("button", { name: "Download CSV" })).toHaveFocus();
    // An answer after the cancel saves nothing.
    act(() => held.answer({ kind: "done", file: new Blob(["x"]) }));
    expect(saved).toEqual([]);
  });

  it("says what to do when the worker dies", async () => {
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

  it("makes the CSV in-thread where there is no Worker, of the vehicles shown when asked", async () => {
    const saved = captureDownloads();
    renderControls();
    await userEvent.click(screen.getByRole("radio", { name: /shown/i }));
    await userEvent.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() =>
      expect(saved.map(({ name }) => name)).toEqual([
        "vics-fleet-Vans-2026-11-27.csv",
      ]),
    );
    const text = await saved[0]!.file.text();
    expect(text.trim().split("\r\n")).toHaveLength(2);
  });
});
