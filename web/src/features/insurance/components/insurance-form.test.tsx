import { describe, expect, it } from "vitest";
import { screen } from "@testing-library/react";
import { insuranceFixture } from "../../../test/fixtures.ts";
import { json, serveInsurance } from "../../../test/api-handlers.ts";
import { renderRoute } from "../../../test/render-route.tsx";

describe("insurance check form", () => {
  it("shows the GOV.UK registration input", () => {
    renderRoute("/");
    const input = screen.getByRole("textbox", { name: "Registration number" });
    expect(input).toHaveAccessibleDescription("For example, AB12 CDE");
    expect(input).toHaveAttribute("spellcheck", "false");
    expect(input).toHaveAttribute("autocomplete", "off");
    expect(input).toHaveAttribute("autocapitalize", "characters");
    expect(input).not.toHaveAttribute("maxlength");
    expect(
      screen.getByRole("button", { name: "Check insurance" }),
    ).toBeInTheDocument();
    expect(document.title).toBe("Insurance check – VICS");
  });

  it("grows the input with what was typed, so nothing is cut off", async () => {
    const { user } = renderRoute("/");
    const input = screen.getByRole("textbox", { name: "Registration number" });
    const before = parseFloat(input.style.width);
    await user.type(input, "WWWWWWWWWWWWWWWW");
    expect(parseFloat(input.style.width)).toBeGreaterThan(before);
    expect(parseFloat(input.style.width)).toBeGreaterThanOrEqual(16);
  });

  it("validates before any request: error message, aria-invalid, focus", async () => {
    const requested = serveInsurance(() => json(insuranceFixture()));
    const { user, router } = renderRoute("/");
    const input = screen.getByRole("textbox", { name: "Registration number" });
    await user.type(input, "AB12 CD!");
    await user.click(screen.getByRole("button", { name: "Check insurance" }));

    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveFocus();
    expect(input).toHaveAccessibleDescription(
      "For example, AB12 CDE Error: Registration must only include letters A to Z and numbers 0 to 9",
    );
    expect(router.state.location.pathname).toBe("/");
    expect(requested).toEqual([]);
  });

  it("asks for a registration when the field is empty", async () => {
    const requested = serveInsurance(() => json(insuranceFixture()));
    const { user } = renderRoute("/");
    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    expect(screen.getByText("Enter a registration number")).toBeVisible();
    expect(requested).toEqual([]);
  });
});
