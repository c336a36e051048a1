import "fake-indexeddb/auto";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { screen, within } from "@testing-library/react";
import { fakeUpstream } from "../testing/upstream.ts";
import { answered, insured } from "../testing/fleet-fixtures.ts";
import { renderFleet, setUpFleetTests } from "../testing/fleet-page.tsx";
import { finishedRun } from "../testing/results.ts";

setUpFleetTests();

// A phone's width: jsdom has no layout, so the media query answers as a phone's would.
beforeEach(() => {
  vi.stubGlobal("matchMedia", (query: string) => ({
    matches: query === "(max-width: 640px)",
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
  }));
});
afterEach(() => vi.unstubAllGlobals());

const SLOW = { timeout: 10_000 };

function cardRegistrations(): string[] {
  const cards = within(
    screen.getByRole("region", { name: /^Showing / }),
  ).getAllByRole("listitem");
  return cards.map(
    (card) => within(card).getAllByRole("link")[0]?.textContent ?? "",
  );
}

describe("the results on a phone", () => {
  it("shows one card per row, outcome first, needing action first", async () => {
    fakeUpstream();
    const run = await finishedRun(
      [
        insured("AB12CDE", "2027-06-30", "Acorn Mutual"),
        answered("UN51NSD", { status: "not-insured" }),
      ],
      false,
    );
    renderFleet(`/fleet/runs/${run.id}`);
    await screen.findByRole("region", { name: /^Showing / }, SLOW);
    expect(screen.queryByRole("table")).not.toBeInTheDocument();
    const [first] = within(
      screen.getByRole("region", { name: /^Showing / }),
    ).getAllByRole("listitem");
    expect(first?.firstElementChild).toHaveTextContent(/^Not insured/);
    expect(cardRegistrations()).toEqual(["UN51 NSD", "AB12 CDE"]);
  });

  it("sorts the cards with a 'Sort by' choice, as the table's headers do", async () => {
    fakeUpstream();
    const run = await finishedRun(
      [
        insured("ZX70ABC", "2027-06-30", "Acorn Mutual"),
        insured("AB12CDE", "2027-06-30", "Beacon"),
      ],
      false,
    );
    const { user, router } = renderFleet(`/fleet/runs/${run.id}`);
    const sortBy = await screen.findByRole(
      "combobox",
      { name: "Sort by" },
      SLOW,
    );
    await user.selectOptions(sortBy, "Registration (A to Z)");
    expect(cardRegistrations()).toEqual(["AB12 CDE", "ZX70 ABC"]);
    await user.selectOptions(sortBy, "Registration (Z to A)");
    expect(cardRegistrations()).toEqual(["ZX70 ABC", "AB12 CDE"]);
    expect(router.state.location.search).toContain("sort=registration");
  });
});
