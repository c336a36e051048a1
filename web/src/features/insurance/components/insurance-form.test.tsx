import { describe, expect, it } from "vitest";
import { screen, within } from "@testing-library/react";
import { insuranceFixture } from "../../../testing/fixtures.ts";
import { json, serveInsurance } from "../../../testing/api-handlers.ts";
import { renderRoute } from "../../../testing/render-route.tsx";

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

  it("validates before any request: error summary, error message, aria-invalid, title", async () => {
    const requested = serveInsurance(() => json(insuranceFixture()));
    const { user, router } = renderRoute("/");
    const input = screen.getByRole("textbox", { name: "Registration number" });
    await user.type(input, "AB12 CD!");
    await user.click(screen.getByRole("button", { name: "Check insurance" }));

    const message =
      "Registration must only include letters A to Z and numbers 0 to 9";
    // The GOV.UK error summary comes first and takes focus.
    const summary = screen.getByRole("alert");
    expect(
      within(summary).getByRole("heading", { name: "There is a problem" }),
    ).toBeVisible();
    expect(summary.parentElement).toHaveFocus();
    expect(document.title).toBe("Error: Insurance check – VICS");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(input).toHaveAccessibleDescription(
      `For example, AB12 CDE Error: ${message}`,
    );
    expect(router.state.location.pathname).toBe("/");
    expect(requested).toEqual([]);

    // Its link puts the user in the field, without going through the router.
    await user.click(within(summary).getByRole("link", { name: message }));
    expect(input).toHaveFocus();
    expect(router.state.location).toMatchObject({ pathname: "/", hash: "" });
  });

  it("asks for a registration when the field is empty, and takes focus again on every attempt", async () => {
    const requested = serveInsurance(() => json(insuranceFixture()));
    const { user } = renderRoute("/");
    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    const summary = screen.getByRole("alert").parentElement as HTMLElement;
    expect(summary).toHaveTextContent(
      "There is a problemEnter a registration number",
    );
    expect(summary).toHaveFocus();
    screen.getByRole("textbox", { name: "Registration number" }).focus();
    await user.keyboard("{Enter}");
    expect(summary).toHaveFocus();
    expect(requested).toEqual([]);
  });

  it("drops the error, its summary and the title's prefix once a valid registration is checked", async () => {
    serveInsurance((registration) => json(insuranceFixture({ registration })));
    const { user } = renderRoute("/");
    const input = screen.getByRole("textbox", { name: "Registration number" });
    await user.type(input, "AB{Enter}");
    expect(document.title).toBe("Error: Insurance check – VICS");
    await user.type(input, "12CDE{Enter}");
    expect(
      await screen.findByRole("heading", { name: "Insured" }),
    ).toBeVisible();
    expect(screen.queryByText("There is a problem")).not.toBeInTheDocument();
    expect(input).not.toBeInvalid();
    expect(document.title).toBe("AB12 CDE: Insured – Insurance check – VICS");
  });

  it("an error typed over a result shows in the title too", async () => {
    serveInsurance((registration) => json(insuranceFixture({ registration })));
    const { user } = renderRoute("/vehicle/AB12CDE");
    await screen.findByRole("heading", { name: "Insured" });
    const input = screen.getByRole("textbox", { name: "Registration number" });
    await user.clear(input);
    await user.type(input, "!!{Enter}");
    expect(screen.getByText("There is a problem")).toBeVisible();
    expect(document.title).toBe(
      "Error: AB12 CDE: Insured – Insurance check – VICS",
    );
  });
});
