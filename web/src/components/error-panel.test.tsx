import { describe, expect, it, vi } from "vitest";
import { render, screen } from "@testing-library/react";
import userEvent from "@testing-library/user-event";
import { MemoryRouter, Route, Routes } from "react-router";
import { ApiError } from "@vics/shared";
import { ErrorPanel } from "./error-panel.tsx";

describe("ErrorPanel", () => {
  it("turns an unknown error into words and a Try again button", async () => {
    const onRetry = vi.fn();
    const user = userEvent.setup();
    render(
      <ErrorPanel error={new TypeError("x is undefined")} onRetry={onRetry} />,
    );
    expect(screen.getByRole("alert")).toHaveTextContent(
      "Sorry, something went wrong",
    );
    expect(screen.queryByText(/undefined/)).not.toBeInTheDocument();
    await user.click(screen.getByRole("button", { name: "Try again" }));
    expect(onRetry).toHaveBeenCalledOnce();
  });

  it("links each suggestion to the same view of that registration", () => {
    const panel = (
      <ErrorPanel
        error={
          new ApiError({
            status: 404,
            code: "VEHICLE_NOT_FOUND",
            detail: "x",
            suggestions: ["A01"],
          })
        }
        onRetry={vi.fn()}
        registration="AO1"
      />
    );
    render(
      <MemoryRouter initialEntries={["/compliance/AO1"]}>
        <Routes>
          <Route path="compliance/:registration" element={panel} />
        </Routes>
      </MemoryRouter>,
    );
    expect(screen.getByRole("link", { name: "A 01" })).toHaveAttribute(
      "href",
      "/compliance/A01",
    );
  });

  it("says it is trying again while a retry is in flight", () => {
    const onRetry = vi.fn();
    render(
      <ErrorPanel
        error={new ApiError({ status: 500, code: "INTERNAL", detail: "x" })}
        onRetry={onRetry}
        retrying
      />,
    );
    const button = screen.getByRole("button", { name: "Trying again…" });
    expect(button).toHaveAttribute("aria-disabled", "true");
  });
});
