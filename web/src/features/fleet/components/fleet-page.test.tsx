import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { renderRoute } from "../../../test/render-route.tsx";

describe("fleet check placeholder", () => {
  it("says it is coming, and what a fleet manager can do now", () => {
    renderRoute("/fleet");
    expect(
      screen.getByRole("heading", { level: 1, name: "Fleet check" }),
    ).toBeVisible();
    expect(screen.getByText("Fleet check: coming next.")).toBeVisible();
    expect(
      screen.getByText(
        "You will be able to check a list of up to 1,000 registrations at once.",
      ),
    ).toBeVisible();

    expect(
      screen.getByRole("heading", { level: 2, name: "What you can do now" }),
    ).toBeVisible();
    expect(
      screen.getByRole("link", { name: "insurance check" }),
    ).toHaveAttribute("href", "/");
    expect(
      screen.getByRole("link", { name: "compliance check" }),
    ).toHaveAttribute("href", "/compliance");

    expect(
      screen.getByRole("heading", {
        level: 2,
        name: "If you have a large fleet",
      }),
    ).toBeVisible();
    expect(screen.getByText(/API key on the fleet plan/).textContent).toBe(
      "Ask your administrator for an API key on the fleet plan. It lets your own systems use the VICS API directly, for up to 1,200 checks a minute.",
    );
    expect(screen.getByText("docs/api.md").tagName).toBe("CODE");
  });

  it("lays its content out in the same column as the other pages", () => {
    renderRoute("/fleet");
    const column = screen
      .getByRole("heading", { level: 1, name: "Fleet check" })
      .closest(".column-two-thirds");
    expect(column?.parentElement).toHaveClass("grid-row");
  });
});
