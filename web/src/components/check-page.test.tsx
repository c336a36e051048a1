// Both views' pages: the registration in the URL is the state, normalised, validated and shareable.
import { describe, expect, it, vi } from "vitest";
import { screen, waitFor, within } from "@testing-library/react";
import {
  json,
  serveCompliance,
  serveInsurance,
} from "../testing/api-handlers.ts";
import { CHECK_VIEWS } from "../testing/check-views.ts";
import { problemFixture } from "../testing/fixtures.ts";
import { renderRoute } from "../testing/render-route.tsx";

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
    // The answer's heading takes focus: on a phone it is below the form.
    await waitFor(() =>
      expect(screen.getByRole("heading", { name: view.verdict })).toHaveFocus(),
    );
  });

  it("shows the validation message for an invalid URL, with no request", () => {
    const insurance = serveInsurance(() => json({}));
    const compliance = serveCompliance(() => json({}));
    renderRoute(view.path("AB123CD"));
    const input = screen.getByRole("textbox", { name: "Registration number" });
    expect(input).toHaveValue("AB123CD");
    expect(input).toHaveAttribute("aria-invalid", "true");
    const message = "Enter a registration in a UK format, like AB12 CDE";
    const summary = screen.getByRole("alert");
    expect(
      within(summary).getByRole("link", { name: message }),
    ).toHaveAttribute("href", `#${input.id}`);
    expect(input).toHaveAccessibleDescription(
      `For example, AB12 CDE Error: ${message}`,
    );
    expect(summary.parentElement).toHaveFocus();
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
    expect(screen.getByRole("heading", { name: view.verdict })).toHaveFocus();
  });

  it("offers Check again beside the time of the check", async () => {
    const requested = view.serve((registration) => view.answer(registration));
    const { user } = renderRoute(view.path("AB12CDE"));
    await screen.findByRole("heading", { name: view.verdict });
    expect(screen.getByText(/^Checked at/)).toBeVisible();
    const again = screen.getByRole("button", { name: "Check again" });
    await user.click(again);
    await vi.waitFor(() => expect(requested).toHaveLength(2));
    await waitFor(() => expect(again).toHaveTextContent("Check again"));
    expect(again).toHaveFocus();
  });

  it("an error answer's heading takes focus after a check", async () => {
    view.serve(() => json(problemFixture("VEHICLE_NOT_FOUND", 404), 404));
    const { user } = renderRoute(view.start);
    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "ZZ99ZZZ{Enter}",
    );
    const heading = await screen.findByRole("heading", {
      name: "No vehicle found",
    });
    await waitFor(() => expect(heading).toHaveFocus());
  });
});
