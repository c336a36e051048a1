import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import {
  setUpFleetTests,
  reviewPasted,
  summaryValue,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

const rowField = () =>
  screen.getByRole("textbox", { name: "Leave out a row of your list" });
const leftOut = () =>
  screen
    .queryByRole("region", { name: "Rows you left out" })
    ?.querySelectorAll("li");
const errorOf = () => rowField().getAttribute("aria-invalid");

const review = () => reviewPasted("AB12CDE{Enter}ZZ99ZZZ{Enter}CD34EFG");

describe("fleet check: leaving out a valid row of the list", () => {
  it("excludes a row by its number, keeps it for the results, and can include it again", async () => {
    const { user } = await review();
    await user.type(rowField(), "2{Enter}");
    expect([...(leftOut() ?? [])].map((item) => item.textContent)).toEqual([
      expect.stringMatching(/^Row 2: ZZ99 ZZZ/),
    ]);
    expect(summaryValue("Rows you excluded")).toBe("1");
    expect(screen.getByText("Check 2 vehicles")).toBeVisible();
    expect(document.activeElement).toBe(rowField());
    expect(screen.getByTestId("left-out-status")).toHaveTextContent(
      "Row 2, ZZ99 ZZZ, left out. It is not checked, and appears in the results as excluded.",
    );

    await user.click(
      screen.getByRole("button", { name: /^Include again ?row 2$/ }),
    );
    expect(leftOut()).toBeUndefined();
    expect(screen.getByText("Check 3 vehicles")).toBeVisible();
    expect(document.activeElement).toBe(rowField());
  });

  it("says what to do with a row number that is not in the list", async () => {
    const { user } = await review();
    await user.type(rowField(), "9{Enter}");
    expect(errorOf()).toBe("true");
    expect(rowField()).toHaveAccessibleDescription(
      /There is no row 9 in your list\. Its rows are numbered 1 to 3\./,
    );
    await user.clear(rowField());
    await user.type(rowField(), "two{Enter}");
    expect(rowField()).toHaveAccessibleDescription(
      /Enter the number of a row in your list, like 1\./,
    );
    expect(leftOut()).toBeUndefined();
  });
});
