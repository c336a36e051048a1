import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import { fakeUpstream } from "../testing/upstream.ts";
import {
  fleetStore,
  renderFleet,
  setUpFleetTests,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const textbox = () =>
  screen.getByRole("textbox", { name: "Paste registrations" });

function valueOf(term: string): string {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

describe("fleet check: a pasted list", () => {
  it("checks five pasted registrations: counts before sending, one outcome on every row after", async () => {
    const upstream = fakeUpstream({
      notFound: ["ZZ99ZZZ"],
      notInsured: ["UN51NSD"],
    });
    const { user, router } = renderFleet("/fleet");
    await user.type(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
      "AB12CDE{Enter}ZZ99ZZZ{Enter}NOT!{Enter}ab12 cde{Enter}un51nsd",
    );
    await user.click(screen.getByRole("button", { name: "Continue" }));

    expect(
      await screen.findByRole(
        "heading",
        { name: "Check your list" },
        { timeout: 5000 },
      ),
    ).toBeVisible();
    expect(valueOf("Rows")).toBe("5");
    expect(valueOf("Vehicles to check")).toBe("3 (each checked once)");
    expect(valueOf("Rows repeating a vehicle")).toMatch(/^1 /);
    expect(valueOf("Rows with an invalid registration")).toBe("1");
    expect(screen.getByText(/Row 3:/).closest("form")).toHaveTextContent(
      "Registration must only include letters A to Z and numbers 0 to 9",
    );

    await user.click(screen.getByRole("button", { name: "Check 3 vehicles" }));
    await waitFor(() =>
      expect(router.state.location.pathname).toMatch(/^\/fleet\/runs\/\w+$/),
    );
    expect(
      await screen.findByText("Finished: 3 vehicles checked."),
    ).toBeVisible();
    // Each unique registration was asked about once.
    expect(upstream.calls.flatMap((call) => call.registrations).sort()).toEqual(
      ["AB12CDE", "UN51NSD", "ZZ99ZZZ"],
    );

    const table = screen.getByRole("table");
    const rows = within(table).getAllByRole("row").slice(1);
    const cells = rows.map((row) =>
      [...row.querySelectorAll("th, td")]
        .slice(0, 3)
        .map((cell) => cell.textContent),
    );
    // Vehicles needing action first; the duplicate shares its vehicle's answer.
    expect(cells).toEqual([
      ["5", "UN51 NSD", "Not insured Never insured"],
      ["2", "ZZ99 ZZZ", "Not found"],
      [
        "3",
        "NOT!",
        "Invalid registrationRegistration must only include letters A to Z and numbers 0 to 9",
      ].map((text) =>
        text.replace("registrationRegistration", "registration Registration"),
      ),
      ["1", "AB12 CDE", "Insured"],
      ["4", "AB12 CDE", "Insured"],
    ]);
    expect(
      within(rows[0] as HTMLElement).getByRole("link", { name: "UN51 NSD" }),
    ).toHaveAttribute("href", "/vehicle/UN51NSD");
  });

  it("an empty list gets the GOV.UK error summary, linked to the field", async () => {
    const { user } = renderFleet("/fleet");
    await user.click(await screen.findByRole("button", { name: "Continue" }));
    // The first parse loads the parser's modules: slow in a test worker, so a longer wait.
    const summary = await screen.findByRole("alert", {}, { timeout: 5000 });
    expect(summary).toHaveTextContent(/There is a problem.*The list is empty/);
    expect(
      within(summary).getByRole("link", { name: /The list is empty/ }),
    ).toHaveAttribute("href", `#${textbox().id}`);
    expect(textbox()).toHaveAttribute("aria-invalid", "true");
    expect(document.title).toBe("Error: Fleet check – VICS");
  });

  it("keeps what was pasted across a reload of the page", async () => {
    const first = renderFleet("/fleet");
    await first.user.type(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
      "AB12CDE",
    );
    first.unmount();
    renderFleet("/fleet");
    expect(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
    ).toHaveValue("AB12CDE");
  });

  it("keeps the list being checked, fixes and all, across a reload", async () => {
    const first = renderFleet("/fleet");
    await first.user.type(
      await screen.findByRole("textbox", { name: "Paste registrations" }),
      "AB12CDE{Enter}AB1O CDE",
    );
    await first.user.click(screen.getByRole("button", { name: "Continue" }));
    const row = await screen.findByText("Row 2:", {}, { timeout: 5000 });
    await first.user.click(
      within(row.closest("form") as HTMLElement).getByRole("button", {
        name: /Use AB10 CDE/,
      }),
    );
    expect(screen.getByText("Check 2 vehicles")).toBeVisible();
    // Kept a moment after the change.
    const store = await fleetStore();
    await waitFor(async () =>
      expect((await store.loadDraft())?.rows[1]?.registration).toBe("AB10CDE"),
    );
    first.unmount();

    renderFleet("/fleet");
    expect(
      await screen.findByText(/Your list is as you left it/),
    ).toBeVisible();
    expect(
      screen.getByRole("heading", { name: "Check your list" }),
    ).toBeVisible();
    expect(screen.getByText("Check 2 vehicles")).toBeVisible();
    expect(screen.queryByText("Row 2:")).not.toBeInTheDocument();
  });
});
