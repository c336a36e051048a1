import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { setUpFleetTests, reviewPasted } from "../testing/fleet-page.tsx";

setUpFleetTests();

const rowField = (line: number) =>
  screen.getByRole("textbox", { name: `Registration for row ${line}` });
const status = () => screen.getByTestId("invalid-rows-status");

/** Four pasted rows, three of them invalid: row 1 has an O/0 lookalike. */
const review = () =>
  reviewPasted("AB1O CDE{Enter}AB12CDE{Enter}NOT!{Enter}XX!");

describe("fleet check: fixing rows keeps the keyboard user's place", () => {
  it("after 'Use AB10 CDE', focus moves to the next row to fix and the fix is announced", async () => {
    const { user } = await review();
    await user.click(
      // jsdom drops the space before the hidden " for row 1"; browsers keep it.
      screen.getByRole("button", { name: /^Use AB10 CDE ?for row 1$/ }),
    );
    expect(document.activeElement).toBe(rowField(3));
    expect(status()).toHaveTextContent(
      "Row 1 changed to AB10 CDE. 2 rows left to fix.",
    );
  });

  it("after Update with a valid registration, focus moves to the next row to fix", async () => {
    const { user } = await review();
    await user.clear(rowField(3));
    await user.type(rowField(3), "un51nsd{Enter}");
    expect(screen.queryByText("Row 3:")).not.toBeInTheDocument();
    expect(document.activeElement).toBe(rowField(4));
    expect(status()).toHaveTextContent(
      "Row 3 changed to UN51 NSD. 2 rows left to fix.",
    );
  });

  it("after fixing the last row before it, focus goes back to the row above", async () => {
    const { user } = await review();
    await user.clear(rowField(4));
    await user.type(rowField(4), "UN51NSD{Enter}");
    expect(document.activeElement).toBe(rowField(3));
  });

  it("after Update with a registration still not valid, focus stays and says why", async () => {
    const { user } = await review();
    await user.clear(rowField(3));
    await user.type(rowField(3), "N0T{Enter}");
    expect(document.activeElement).toBe(rowField(3));
    expect(status()).toHaveTextContent(/^Row 3 is still not valid: /);
  });

  it("after 'Exclude all', focus moves to the section's heading and the count is announced", async () => {
    const { user } = await review();
    await user.click(
      screen.getByRole("button", {
        name: "Exclude all 3 rows with an invalid registration",
      }),
    );
    expect(document.activeElement).toBe(
      screen.getByRole("heading", { name: /invalid registration/ }),
    );
    expect(status()).toHaveTextContent(
      "3 rows excluded. They are not checked, and appear in the results as excluded.",
    );
  });

  it("when no row is left to fix, focus moves to a message that says so", async () => {
    const { user } = await review();
    await user.click(
      // jsdom drops the space before the hidden " for row 1"; browsers keep it.
      screen.getByRole("button", { name: /^Use AB10 CDE ?for row 1$/ }),
    );
    await user.type(rowField(3), "{Control>}a{/Control}UN51NSD{Enter}");
    await user.type(rowField(4), "{Control>}a{/Control}ZZ99ZZZ{Enter}");
    expect(document.activeElement).toHaveTextContent(
      "All rows now have a valid registration.",
    );
    expect(status()).toHaveTextContent(
      "Row 4 changed to ZZ99 ZZZ. All rows now have a valid registration.",
    );
    expect(screen.getByText("Check 4 vehicles")).toBeVisible();
  });
});
