import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import {
  setUpFleetTests,
  reviewPasted,
  summaryValue,
} from "../testing/fleet-page.tsx";

setUpFleetTests();

describe("fleet check: the review's counts agree", () => {
  it("the invalid rows' heading says how many are to fix and how many excluded, as the summary does", async () => {
    const { user } = await reviewPasted(
      "AB12CDE{Enter}A!{Enter}B!{Enter}C!{Enter}D!",
    );
    for (const line of [3, 4, 5])
      await user.click(
        screen.getByRole("checkbox", { name: `Exclude row ${line}` }),
      );
    expect(
      screen.getByRole("heading", { name: /invalid registration/ }),
    ).toHaveTextContent(
      "Rows with an invalid registration: 1 to fix, 3 excluded",
    );
    expect(summaryValue("Rows with an invalid registration")).toBe("1");
    expect(summaryValue("Rows you excluded")).toBe("3");
  });
});

describe("fleet check: rows that repeat a vehicle", () => {
  it("names each repeated vehicle and its rows, and checks it once", async () => {
    await reviewPasted(
      "ZZ99ZZZ{Enter}AB12CDE{Enter}zz99 zzz{Enter}X!{Enter}AB12-CDE{Enter}ZZ99ZZZ",
    );
    const section = screen.getByRole("region", {
      name: "2 vehicles are in your list more than once",
    });
    expect(
      [...section.querySelectorAll("li")].map((item) => item.textContent),
    ).toEqual(["ZZ99 ZZZ: rows 1, 3 and 6", "AB12 CDE: rows 2 and 5"]);
    expect(summaryValue("Rows repeating a vehicle")).toMatch(/^3 /);
    expect(screen.getByText("Check 2 vehicles")).toBeVisible();
  });
});
