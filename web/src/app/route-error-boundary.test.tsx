// A page that fails to render shows words and a way forward; another address tries again.
import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import { MemoryRouter, Route, Routes } from "react-router";
import { testNavigator } from "../testing/test-navigator.tsx";
import { RouteErrorBoundary } from "./route-error-boundary.tsx";

function Broken(): never {
  throw new Error("the page's code did not load");
}

describe("RouteErrorBoundary", () => {
  it("shows the error page instead of a page that fails, and the next page after", async () => {
    // React reports an error a boundary caught; the page keeps it for the developer tools.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const { element, go } = testNavigator();
    render(
      <MemoryRouter initialEntries={["/broken"]}>
        {element}
        <RouteErrorBoundary>
          <Routes>
            <Route path="/broken" element={<Broken />} />
            <Route path="/" element={<h1>Check a vehicle</h1>} />
          </Routes>
        </RouteErrorBoundary>
      </MemoryRouter>,
    );
    expect(
      screen.getByRole("heading", {
        name: "Sorry, there is a problem with VICS",
      }),
    ).toBeVisible();
    expect(
      screen.getByRole("link", { name: "Go to the insurance check" }),
    ).toHaveAttribute("href", "/");
    expect(warn).toHaveBeenCalledWith(
      "VICS could not show this page",
      expect.objectContaining({ message: "the page's code did not load" }),
    );

    await go("/");
    expect(
      screen.getByRole("heading", { name: "Check a vehicle" }),
    ).toBeVisible();
  });
});
