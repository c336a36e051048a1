// A page that fails to render shows words and a way forward; another address tries again.
import { useLayoutEffect } from "react";
import { describe, expect, it, vi } from "vitest";
import { act, render, screen } from "@testing-library/react";
import {
  MemoryRouter,
  Route,
  Routes,
  useNavigate,
  type NavigateFunction,
} from "react-router";
import { RouteErrorBoundary } from "./route-error-boundary.tsx";

function Navigator({ onRender }: { onRender: (n: NavigateFunction) => void }) {
  const navigate = useNavigate();
  useLayoutEffect(() => {
    onRender(navigate);
  }, [onRender, navigate]);
  return null;
}

function Broken(): never {
  throw new Error("the page's code did not load");
}

describe("RouteErrorBoundary", () => {
  it("shows the error page instead of a page that fails, and the next page after", async () => {
    // React reports an error a boundary caught; the page keeps it for the developer tools.
    vi.spyOn(console, "error").mockImplementation(() => {});
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    let navigate: NavigateFunction = () => undefined;
    const keep = (next: NavigateFunction) => (navigate = next);
    render(
      <MemoryRouter initialEntries={["/broken"]}>
        <Navigator onRender={keep} />
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

    await act(async () => navigate("/"));
    expect(
      screen.getByRole("heading", { name: "Check a vehicle" }),
    ).toBeVisible();
  });
});
