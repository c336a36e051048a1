import "fake-indexeddb/auto";
import { describe, expect, it, vi } from "vitest";
import { fireEvent, screen, waitFor, within } from "@testing-library/react";
import Papa from "papaparse";
import { fakeUpstream } from "../testing/upstream.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

const CSV = [
  "Fleet number,Driver,Reg no,Depot",
  "F001,Sam Taylor,AB12 CDE,Leeds",
  "F002,Alex Morgan,UN51NSD,Bristol",
  "F003,Jo Lee,AB1O CDE,York",
  "F004,Kim Fox,??,Hull",
].join("\r\n");

function csvFile(text = CSV, name = "depot-list.csv") {
  return new File([`\uFEFF${text}`], name, { type: "text/csv" });
}

/** Captures what the page downloads: the file's name and its text. */
function captureDownloads() {
  const files: Array<{ name: string; blob: Blob }> = [];
  const blobs: Blob[] = [];
  URL.createObjectURL = vi.fn((blob: Blob) => {
    blobs.push(blob);
    return `blob:${blobs.length}`;
  });
  URL.revokeObjectURL = vi.fn();
  vi.spyOn(HTMLAnchorElement.prototype, "click").mockImplementation(function (
    this: HTMLAnchorElement,
  ) {
    const blob = blobs[Number(this.href.split(":").at(-1)) - 1];
    if (blob) files.push({ name: this.download, blob });
  });
  return files;
}

describe("fleet check: an uploaded file", () => {
  it("finds the registration column, lets a row be fixed and another excluded, and keeps the other columns to the export", async () => {
    fakeUpstream({ notInsured: ["UN51NSD"] });
    const downloads = captureDownloads();
    const { user } = renderFleet("/fleet");
    await user.upload(await screen.findByLabelText("Upload a file"), csvFile());

    const column = await screen.findByRole(
      "combobox",
      { name: "Which column has the registrations?" },
      SLOW,
    );
    expect(column).toHaveDisplayValue("Reg no");
    expect(screen.getByText("depot-list.csv")).toBeVisible();

    // Row 4 reads "AB1O CDE": one O/0 swap from a valid plate.
    const row4 = screen.getByText("Row 4:").closest("form") as HTMLElement;
    await user.click(
      within(row4).getByRole("button", { name: /Use AB10 CDE/ }),
    );
    const row5 = screen.getByText("Row 5:").closest("form") as HTMLElement;
    await user.click(
      within(row5).getByRole("checkbox", { name: "Exclude row 5" }),
    );
    expect(screen.queryByText("Row 4:")).not.toBeInTheDocument();

    await user.click(screen.getByRole("button", { name: "Check 3 vehicles" }));
    expect(
      await screen.findByText("Finished: 3 vehicles checked.", {}, SLOW),
    ).toBeVisible();
    const table = screen.getByRole("table");
    expect(
      within(table).getByRole("columnheader", { name: /Driver/ }),
    ).toBeVisible();
    expect(within(table).getByText("Sam Taylor")).toBeVisible();
    expect(within(table).getByText("Excluded")).toBeVisible();

    await user.click(screen.getByRole("button", { name: "Download CSV" }));
    await waitFor(() => expect(downloads).toHaveLength(1));
    const [download] = downloads;
    expect(download?.name).toMatch(
      /^vics-fleet-check-depot-list-\d{4}-\d{2}-\d{2}\.csv$/,
    );
    const parsed = Papa.parse<string[]>(
      (await download!.blob.text()).replace(/^\uFEFF/, ""),
      {
        skipEmptyLines: true,
      },
    ).data;
    const [header, ...rows] = parsed;
    // The user's columns come back in their order and names, their registration column as it
    // was in their file; then what VICS found.
    expect(header?.slice(0, 7)).toEqual([
      "Row",
      "Fleet number",
      "Driver",
      "Reg no",
      "Depot",
      "Registration",
      "Outcome",
    ]);
    expect(rows.map((row) => row.slice(0, 7))).toEqual([
      ["2", "F001", "Sam Taylor", "AB12 CDE", "Leeds", "AB12 CDE", "Insured"],
      [
        "3",
        "F002",
        "Alex Morgan",
        "UN51NSD",
        "Bristol",
        "UN51 NSD",
        "Not insured",
      ],
      ["4", "F003", "Jo Lee", "AB1O CDE", "York", "AB10 CDE", "Insured"],
      ["5", "F004", "Kim Fox", "??", "Hull", "", "Excluded"],
    ]);
    const notes = header?.indexOf("Notes") ?? -1;
    expect(rows[2]?.[notes]).toBe("Corrected from AB1O CDE");
  });

  it("says what is wrong with a file that is not a spreadsheet", async () => {
    const { user } = renderFleet("/fleet");
    await user.upload(
      await screen.findByLabelText("Upload a file"),
      // A PDF saved under a spreadsheet's name: the bytes decide, not the name.
      new File(
        [new Uint8Array([0x25, 0x50, 0x44, 0x46, 0, 1, 2, 3])],
        "fleet.csv",
        { type: "text/csv" },
      ),
    );
    const summary = await screen.findByRole("alert", {}, SLOW);
    expect(summary).toHaveTextContent(/There is a problem.*not a spreadsheet/i);
    expect(screen.getByLabelText("Upload a file")).toHaveAttribute(
      "aria-invalid",
      "true",
    );
    expect(document.title).toBe("Error: Fleet check – VICS");
  });

  it("takes a file dropped on the upload zone", async () => {
    renderFleet("/fleet");
    const zone = await screen.findByTestId("file-drop");
    fireEvent.dragOver(zone);
    expect(zone).toHaveClass("file-drop--over");
    fireEvent.drop(zone, { dataTransfer: { files: [csvFile()] } });
    expect(zone).not.toHaveClass("file-drop--over");
    expect(
      await screen.findByRole(
        "combobox",
        { name: "Which column has the registrations?" },
        SLOW,
      ),
    ).toHaveDisplayValue("Reg no");
  });

  it("offers a template to download", async () => {
    const downloads = captureDownloads();
    const { user } = renderFleet("/fleet");
    await user.click(
      await screen.findByRole("button", { name: "Download a template (CSV)" }),
    );
    expect(downloads.map((file) => file.name)).toEqual([
      "vics-fleet-template.csv",
    ]);
    expect(await downloads[0]?.blob.text()).toMatch(/^\uFEFF?Registration,/);
  });
});
