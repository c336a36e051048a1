import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { draftFor } from "../lib/list-draft.ts";
import { parsePaste } from "../lib/parse/parse-paste.ts";
import type { SourceTable } from "../lib/fleet-types.ts";
import {
  fleetStore,
  renderFleet,
  setUpFleetTests,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const pasteBox = () =>
  screen.queryByRole("textbox", { name: "Paste registrations" });

async function saveDraft(text: string) {
  const table = parsePaste(text) as SourceTable;
  await (await fleetStore()).saveDraft(draftFor(table));
}

describe("fleet check: the list kept from before", () => {
  it("never shows the empty form while the saved list is on its way", async () => {
    await saveDraft("AB12CDE\nAB1O CDE");
    renderFleet("/fleet");
    // Until the saved list is known, a short loading message, never a form to be replaced.
    expect(
      await screen.findByRole("heading", { name: "Fleet check", level: 1 }),
    ).toBeVisible();
    expect(pasteBox()).not.toBeInTheDocument();
    expect(
      screen.getByText("Looking for the list you were working on…"),
    ).toBeVisible();
    expect(
      await screen.findByRole("heading", { name: "Check your list" }),
    ).toBeVisible();
    expect(pasteBox()).not.toBeInTheDocument();
    expect(screen.getByText(/Your list is as you left it/)).toBeVisible();
  });

  it("shows the form at once when nothing was kept", async () => {
    renderFleet("/fleet");
    expect(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
    ).toHaveValue("");
  });

  it("gives back the pasted text after 'Choose a different list'", async () => {
    const { user } = renderFleet("/fleet");
    await user.type(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
      "AB12CDE{Enter}ZZ99ZZZ",
    );
    await user.click(screen.getByRole("button", { name: "Continue" }));
    await screen.findByRole(
      "heading",
      { name: "Check your list" },
      { timeout: 5000 },
    );
    await user.click(
      screen.getByRole("button", { name: "Choose a different list" }),
    );
    expect(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
    ).toHaveValue("AB12CDE\nZZ99ZZZ");
  });

  it("gives back a pasted list kept from another visit, when this tab has lost its text", async () => {
    await saveDraft("AB12CDE, ZZ99ZZZ\nAB1O CDE");
    sessionStorage.clear();
    const { user } = renderFleet("/fleet");
    await user.click(
      await screen.findByRole("button", { name: "Choose a different list" }),
    );
    expect(pasteBox()).toHaveValue("AB12CDE\nZZ99ZZZ\nAB1O CDE");
  });
});
