import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor } from "@testing-library/react";
import type { SourceTable } from "../lib/fleet-types.ts";
import { draftFor } from "../lib/list-draft.ts";
import {
  fleetStore,
  renderFleet,
  setUpFleetTests,
  reviewPasted,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const addField = () =>
  screen.getByRole("textbox", { name: "Add a vehicle to check" });
const addButton = () => screen.getByRole("button", { name: "Add vehicle" });
const added = () =>
  screen
    .queryByRole("region", { name: "Vehicles you added" })
    ?.querySelectorAll("li");

const review = () => reviewPasted("AB12CDE{Enter}ZZ99ZZZ");

describe("fleet check: adding and removing vehicles before the check", () => {
  it("adds a typed registration as a new row after the list's own, marked as added", async () => {
    const { user } = await review();
    await user.type(addField(), "un51 nsd");
    await user.click(addButton());
    expect([...(added() ?? [])].map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Row 3 \(added\): UN51 NSD/),
    ]);
    expect(screen.getByText("Check 3 vehicles")).toBeVisible();
    // Ready for the next one.
    expect(addField()).toHaveValue("");
    expect(document.activeElement).toBe(addField());
    expect(screen.getByTestId("added-rows-status")).toHaveTextContent(
      "Added UN51 NSD as row 3.",
    );
  });

  it("checks a typed registration like the list's rows, with the O/0, I/1 lookalikes to take", async () => {
    const { user } = await review();
    await user.type(addField(), "AB1O CDE{Enter}");
    expect(addField()).toHaveAccessibleDescription(
      /Enter a registration in a UK format, like AB12 CDE/,
    );
    expect(addField()).toHaveAttribute("aria-invalid", "true");
    expect(added()).toBeUndefined();
    await user.click(screen.getByRole("button", { name: "Add AB10 CDE" }));
    expect([...(added() ?? [])].map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Row 3 \(added\): AB10 CDE/),
    ]);
  });

  it("says when the vehicle is already in the list, and does not add it twice", async () => {
    const { user } = await review();
    await user.type(addField(), "zz99 zzz{Enter}");
    expect(addField()).toHaveAccessibleDescription(
      /ZZ99 ZZZ is already in your list, in row 2\./,
    );
    expect(added()).toBeUndefined();
  });

  it("removes an added vehicle, and keeps focus in the section", async () => {
    const { user } = await review();
    await user.type(addField(), "UN51NSD{Enter}");
    await user.type(addField(), "CD34EFG{Enter}");
    await user.click(
      // jsdom drops the space before the hidden " row 3…"; browsers keep it.
      screen.getByRole("button", { name: /^Remove ?row 3, UN51 NSD$/ }),
    );
    expect([...(added() ?? [])].map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Row 4 \(added\): CD34 EFG/),
    ]);
    expect(screen.getByText("Check 3 vehicles")).toBeVisible();
    expect(document.activeElement).toBe(addField());
    expect(screen.getByTestId("added-rows-status")).toHaveTextContent(
      "Removed row 3, UN51 NSD.",
    );
  });

  it("keeps added vehicles across a reload", async () => {
    const first = await review();
    await first.user.type(addField(), "UN51NSD{Enter}");
    const store = await fleetStore();
    await waitFor(async () =>
      expect((await store.loadDraft())?.rows[2]).toMatchObject({
        line: 3,
        registration: "UN51NSD",
        added: true,
      }),
    );
    first.unmount();
    renderFleet("/fleet");
    await screen.findByText(/Your list is as you left it/);
    expect([...(added() ?? [])].map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Row 3 \(added\): UN51 NSD/),
    ]);
  });
});

describe("fleet check: added vehicles and the registration column", () => {
  it("keeps added vehicles when another column is chosen", async () => {
    const table: SourceTable = {
      source: "fleet.csv",
      header: ["Registration", "Old registration"],
      rows: [
        { line: 2, cells: ["AB12CDE", "ZZ99ZZZ"] },
        { line: 3, cells: ["CD34EFG", "YY99YYY"] },
      ],
      columnCount: 2,
    };
    await (await fleetStore()).saveDraft(draftFor(table));
    const { user } = renderFleet("/fleet");
    await screen.findByText(
      /Your list is as you left it/,
      {},
      { timeout: 5000 },
    );
    await user.type(addField(), "UN51NSD{Enter}");
    await user.selectOptions(
      screen.getByRole("combobox", {
        name: "Which column has the registrations?",
      }),
      "Old registration",
    );
    expect([...(added() ?? [])].map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Row 4 \(added\): UN51 NSD/),
    ]);
    expect(screen.getByText("Check 3 vehicles")).toBeVisible();
  });
});
