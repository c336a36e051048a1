import "fake-indexeddb/auto";
import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import {
  EMAIL_LINES_WITHOUT_PLATES,
  EMAIL_PASTE,
} from "@vics/shared/testing/email-paste";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";

setUpFleetTests();

const SLOW = { timeout: 5000 };

async function pasteEmail() {
  const view = renderFleet("/fleet");
  const box = await screen.findByRole(
    "textbox",
    { name: "Paste registrations" },
    SLOW,
  );
  await view.user.click(box);
  await view.user.paste(EMAIL_PASTE);
  await view.user.click(screen.getByRole("button", { name: "Continue" }));
  await screen.findByRole("heading", { name: "Check your list" }, SLOW);
  return view;
}

describe("fleet check: a list pasted from an email", () => {
  it("shows what was taken from each line, and every line without a registration as a row to fix", async () => {
    const { user } = await pasteEmail();
    await user.click(screen.getByRole("button", { name: /^Show all/ }));
    expect(
      screen.getByRole("button", { name: "Check 30 vehicles" }),
    ).toBeVisible();

    const taken = screen.getByRole("table", {
      name: "What we took from each line",
    });
    const line = (number: number) =>
      within(taken)
        .getAllByRole("row")
        .find(
          (row) =>
            within(row).queryAllByRole("cell")[0]?.textContent ===
            String(number),
        );
    // Written as every screen writes a plate, whatever the paste's spacing or case.
    expect(line(16)).toHaveTextContent("FR12JRE / VW68DKFFR12 JRE, VW68 DKF");
    expect(line(12)).toHaveTextContent("Reg: SW71 UWJSW71 UWJ");
    expect(line(14)).toHaveTextContent("FN19 OUT – driver says paidFN19 OUT");
    expect(line(1)).toHaveTextContent(
      "Hi Sam,No registration found: fix or exclude row 1 below",
    );
    expect(line(19)).toHaveTextContent("uv28wxy, HG17 KLMUV28 WXY, HG17 KLM");

    for (const [number] of EMAIL_LINES_WITHOUT_PLATES)
      expect(screen.getByText(`Row ${number}:`)).toBeVisible();
  });

  it("shows the first lines, and the rest on request", async () => {
    const { user } = await pasteEmail();
    const taken = screen.getByRole("table", {
      name: "What we took from each line",
    });
    expect(within(taken).getAllByRole("row")).toHaveLength(1 + 10);
    await user.click(screen.getByRole("button", { name: "Show all 27 lines" }));
    expect(within(taken).getAllByRole("row")).toHaveLength(1 + 27);
    // Keyboard users carry on from the first line the button brought.
    expect(within(taken).getByRole("cell", { name: "13" })).toHaveFocus();
  });
});
