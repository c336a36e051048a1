import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { workbookFile } from "../lib/parse/test-files.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

async function workbook(): Promise<File> {
  const bytes = await workbookFile([
    [
      "Fleet summary – Q4",
      [
        ["Depot", "Vehicles"],
        ["Leeds", 2],
        ["York", 1],
      ],
    ],
    [
      "Vehicles",
      [
        ["Registration", "Depot"],
        ["AB12 CDE", "Leeds"],
        ["CD34EFG", "Leeds"],
        ["EF56 GHI", "York"],
      ],
    ],
    ["Spares", [["Reg"], ["GH78 IJK"]]],
  ]);
  return new File([bytes], "fleet.xlsx", {
    type: "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
  });
}

function sheetChoice() {
  return screen.findByRole(
    "group",
    { name: "Which sheet has your vehicles?" },
    SLOW,
  );
}

describe(
  "fleet check: a workbook of several sheets",
  { timeout: 15_000 },
  () => {
    it("offers the sheets by name with their rows, the one with registrations chosen", async () => {
      const { user } = renderFleet("/fleet");
      await user.upload(
        await screen.findByLabelText("Upload a file", {}, SLOW),
        await workbook(),
      );

      const group = await sheetChoice();
      const vehicles = within(group).getByRole("radio", { name: /^Vehicles/ });
      expect(vehicles).toBeChecked();
      expect(vehicles).toHaveAccessibleName("Vehicles 3 rows, 3 registrations");
      expect(
        within(group).getByRole("radio", { name: /^Fleet summary – Q4/ }),
      ).toHaveAccessibleName(
        "Fleet summary – Q4 3 rows, no registrations found",
      );
      expect(
        within(group).getByRole("radio", { name: /^Spares/ }),
      ).toHaveAccessibleName("Spares 1 row, 1 registration");

      await user.click(screen.getByRole("button", { name: "Continue" }));
      expect(
        await screen.findByRole("heading", { name: "Check your list" }),
      ).toHaveFocus();
      expect(screen.getByText("fleet.xlsx (sheet “Vehicles”)")).toBeVisible();
      expect(
        screen.getByRole("button", { name: "Check 3 vehicles" }),
      ).toBeVisible();
    });

    it("reads another sheet when chosen", async () => {
      const { user } = renderFleet("/fleet");
      await user.upload(
        await screen.findByLabelText("Upload a file", {}, SLOW),
        await workbook(),
      );
      const group = await sheetChoice();
      await user.click(within(group).getByRole("radio", { name: /^Spares/ }));
      await user.click(screen.getByRole("button", { name: "Continue" }));
      expect(
        await screen.findByText("fleet.xlsx (sheet “Spares”)", {}, SLOW),
      ).toBeVisible();
      expect(
        screen.getByRole("button", { name: "Check 1 vehicle" }),
      ).toBeVisible();
    });

    it("says a sheet holds no registrations, and will not take it while another does", async () => {
      const { user } = renderFleet("/fleet");
      await user.upload(
        await screen.findByLabelText("Upload a file", {}, SLOW),
        await workbook(),
      );
      const group = await sheetChoice();
      await user.click(
        within(group).getByRole("radio", { name: /^Fleet summary/ }),
      );
      await user.click(screen.getByRole("button", { name: "Continue" }));
      const summary = await screen.findByRole("alert");
      expect(summary).toHaveTextContent(
        "The sheet “Fleet summary – Q4” has no registrations in it. Choose the sheet that lists your vehicles.",
      );
      expect(
        screen.queryByRole("heading", { name: "Check your list" }),
      ).not.toBeInTheDocument();
    });

    it("goes back to choose a different file", async () => {
      const { user } = renderFleet("/fleet");
      await user.upload(
        await screen.findByLabelText("Upload a file", {}, SLOW),
        await workbook(),
      );
      await sheetChoice();
      await user.click(
        screen.getByRole("button", { name: "Choose a different file" }),
      );
      expect(screen.getByLabelText("Upload a file")).toBeVisible();
    });
  },
);
