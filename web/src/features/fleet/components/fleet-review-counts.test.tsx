import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { renderFleet, setUpFleetTests } from "./fleet-test-support.tsx";

setUpFleetTests();

function valueOf(term: string): string {
  const dt = screen.getByText(term, { selector: "dt" });
  return dt.nextElementSibling?.textContent ?? "";
}

/** Pastes `text` and continues to "Check your list". */
async function review(text: string) {
  sessionStorage.clear(); // no text kept from the test before
  const view = renderFleet("/fleet");
  await view.user.type(
    await screen.findByRole(
      "textbox",
      { name: "Paste registrations" },
      { timeout: 5000 },
    ),
    text,
  );
  await view.user.click(screen.getByRole("button", { name: "Continue" }));
  await screen.findByRole(
    "heading",
    { name: "Check your list" },
    { timeout: 5000 },
  );
  return view;
}

describe("fleet check: the review's counts agree", () => {
  it("the invalid rows' heading says how many are to fix and how many excluded, as the summary does", async () => {
    const { user } = await review(
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
    expect(valueOf("Rows with an invalid registration")).toBe("1");
    expect(valueOf("Rows you excluded")).toBe("3");
  });
});

describe("fleet check: rows that repeat a vehicle", () => {
  it("names each repeated vehicle and its rows, and checks it once", async () => {
    await review(
      "ZZ99ZZZ{Enter}AB12CDE{Enter}zz99 zzz{Enter}X!{Enter}AB12-CDE{Enter}ZZ99ZZZ",
    );
    const section = screen.getByRole("region", {
      name: "2 vehicles are in your list more than once",
    });
    expect(
      [...section.querySelectorAll("li")].map((item) => item.textContent),
    ).toEqual(["ZZ99 ZZZ: rows 1, 3 and 6", "AB12 CDE: rows 2 and 5"]);
    expect(valueOf("Rows repeating a vehicle")).toMatch(/^3 /);
    expect(screen.getByText("Check 2 vehicles")).toBeVisible();
  });
});
