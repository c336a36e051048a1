// A saved fleet's table writes each registration as every other screen does: DVLA spacing.
import { describe, expect, it } from "vitest";
import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { watchedVehicle } from "../testing/watched-fixtures.ts";
import { watchedEntries } from "../lib/watched-view.ts";
import { WatchedTable } from "./watched-table.tsx";

describe("a saved fleet's table", () => {
  it("writes each registration with its space, as the results and the plates do", () => {
    const entries = watchedEntries([
      watchedVehicle({ registration: "AB12CDE" }),
      watchedVehicle({ registration: "4291CKU" }),
    ]);
    render(
      <MemoryRouter>
        <WatchedTable
          entries={entries}
          columns={["Driver"]}
          changes={false}
          captionId="caption"
        />
      </MemoryRouter>,
    );
    expect(screen.getByRole("link", { name: "AB12 CDE" })).toBeVisible();
    expect(screen.getByRole("link", { name: "4291 CKU" })).toBeVisible();
    expect(screen.queryByText("4291CKU")).not.toBeInTheDocument();
  });
});
