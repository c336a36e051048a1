// Both views' pages: the registration in the URL is the state, normalised, validated and shareable.
import { describe, expect, it, vi } from "vitest";
import { screen } from "@testing-library/react";
import { json, serveCompliance, serveInsurance } from "../test/api-handlers.ts";
import { CHECK_VIEWS } from "../test/check-views.ts";
import { renderRoute } from "../test/render-route.tsx";

describe.each(CHECK_VIEWS)("$name check page", (view) => {
  it("navigates to the shareable URL with the normalised registration", async () => {
    const requested = view.serve((registration) => view.answer(registration));
    const { user, router } = renderRoute(view.start);
    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "ab12 cde",
    );
    await user.click(screen.getByRole("button", { name: view.submitLabel }));
    expect(
      await screen.findByRole("heading", { name: view.verdict }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(view.path("AB12CDE"));
    expect(requested).toEqual(["AB12CDE"]);
    // Focus stays on the form, ready for the next vehicle.
    expect(
      screen.getByRole("button", { name: view.submitLabel }),
    ).toHaveFocus();
  });

  it("shows the validation message for an invalid URL, with no request", () => {
    const insurance = serveInsurance(() => json({}));
    const compliance = serveCompliance(() => json({}));
    renderRoute(view.path("AB123CD"));
    const input = screen.getByRole("textbox", { name: "Registration number" });
    expect(input).toHaveValue("AB123CD");
    expect(input).toHaveAttribute("aria-invalid", "true");
    expect(
      screen.getByText("Enter a registration in a UK format, like AB12 CDE"),
    ).toBeVisible();
    expect(document.title).toBe(`Error: ${view.title} – VICS`);
    expect(insurance).toEqual([]);
    expect(compliance).toEqual([]);
  });

  it("normalises the registration in the URL", async () => {
    const requested = view.serve((registration) => view.answer(registration));
    const { router } = renderRoute(view.path("ab12-cde"));
    expect(
      await screen.findByRole("heading", { name: view.verdict }),
    ).toBeVisible();
    expect(router.state.location.pathname).toBe(view.path("AB12CDE"));
    expect(requested).toEqual(["AB12CDE"]);
  });

  it("re-checks when the same registration is submitted again", async () => {
    const requested = view.serve((registration) => view.answer(registration));
    const { user } = renderRoute(view.path("AB12CDE"));
    await screen.findByRole("heading", { name: view.verdict });
    await user.click(screen.getByRole("button", { name: view.submitLabel }));
    await vi.waitFor(() => expect(requested).toHaveLength(2));
    expect(screen.getByRole("heading", { name: view.verdict })).toBeVisible();
  });
});
