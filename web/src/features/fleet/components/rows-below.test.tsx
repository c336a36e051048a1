import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

/** As Excel saves "CSV UTF-8" where lists use semicolons: BOM, CRLF, a title and a total. */
const EXCEL_CSV = [
  "\uFEFFACME Haulage fleet list, November;;",
  ";;",
  "Fleet number;Registration;Depot",
  "F001;AB12 CDE;Leeds",
  "F002;CD34EFG;York",
  "Total vehicles: 2;;",
  "Notes: the York van is on hire;;",
].join("\r\n");

describe("fleet check: totals and notes under an uploaded list", () => {
  it("says they were left out, and lists none of them as a bad registration", async () => {
    const { user } = renderFleet("/fleet");
    await user.upload(
      await screen.findByLabelText("Upload a file", {}, SLOW),
      new File([EXCEL_CSV], "fleet.csv", { type: "text/csv" }),
    );
    expect(
      await screen.findByText(
        /^Left out 2 rows under the list: they are totals or notes, not vehicles\./,
        {},
        SLOW,
      ),
    ).toBeVisible();
    expect(screen.getByText("Row 6: Total vehicles: 2")).toBeVisible();
    expect(
      screen.getByText("Row 7: Notes: the York van is on hire"),
    ).toBeVisible();
    expect(
      screen.getByText("Row 1: ACME Haulage fleet list, November"),
    ).toBeVisible();
    expect(
      screen.queryByRole("heading", {
        name: /Rows with an invalid registration/,
      }),
    ).not.toBeInTheDocument();
    expect(
      screen.getByRole("button", { name: "Check 2 vehicles" }),
    ).toBeVisible();
  });
});
