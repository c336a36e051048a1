// Both views handle every failed check the same way: words, a way forward, never a raw status.
import { describe, expect, it } from "vitest";
import { act, screen, waitFor, within } from "@testing-library/react";
import { HttpResponse } from "msw";
import { json } from "../testing/api-handlers.ts";
import { CHECK_VIEWS } from "../testing/check-views.ts";
import { problemFixture } from "../testing/fixtures.ts";
import { renderRoute } from "../testing/render-route.tsx";

async function errorPanel(title: string): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", { name: title });
  return heading.closest("section") as HTMLElement;
}

describe.each(CHECK_VIEWS)("$name check errors", (view) => {
  it("not found: words, O/0 I/1 advice, lookalike links, a recent check, and no reference", async () => {
    view.serve((registration) =>
      registration === "AO1"
        ? json(
            problemFixture("VEHICLE_NOT_FOUND", 404, "req-nf-1", {
              suggestions: ["A01"],
            }),
            404,
          )
        : view.answer(registration),
    );
    const { router } = renderRoute(view.path("AO1"));
    const panel = await errorPanel("No vehicle found");

    expect(within(panel).getByRole("alert")).toHaveTextContent(
      "No vehicle found with registration AO 1. Check the letters O and 0, I and 1.",
    );
    expect(within(panel).getByText("Did you mean:")).toBeVisible();
    const suggestion = within(panel).getByRole("link", { name: "A 01" });
    expect(suggestion).toHaveAttribute("href", view.path("A01"));
    // Staff can act on this themselves: support needs no reference for it.
    expect(within(panel).queryByText(/Reference:/)).not.toBeInTheDocument();
    expect(within(panel).queryByText("req-nf-1")).not.toBeInTheDocument();
    expect(within(panel).queryByRole("button")).not.toBeInTheDocument();
    expect(document.title).toBe(`Error: AO 1 – ${view.title} – VICS`);
    expect(panel).not.toHaveTextContent("404");
    expect(
      screen.getByRole("region", { name: "Recent checks" }),
    ).toHaveTextContent(`${view.recentLabel}: No vehicle found`);

    await act(() => router.navigate(suggestion.getAttribute("href") ?? ""));
    expect(
      await screen.findByRole("heading", { name: view.verdict }),
    ).toBeVisible();
  });

  it("not found, and the service holds no lookalike: no guesses from the format", async () => {
    view.serve(() => json(problemFixture("VEHICLE_NOT_FOUND", 404), 404));
    renderRoute(view.path("AO1"));
    const panel = await errorPanel("No vehicle found");
    expect(within(panel).queryByText("Did you mean:")).not.toBeInTheDocument();
  });

  it("server error: the service had a problem (it answered), and Try again refetches", async () => {
    const requested = view.serve((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("INTERNAL", 500, "req-server-a"), 500)
        : view.answer(registration),
    );
    const { user } = renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel("The vehicle service had a problem");
    expect(within(panel).getByRole("alert")).toContainElement(
      panel.querySelector(".error-panel__message"),
    );
    expect(panel.querySelector(".error-panel__message")?.textContent).toBe(
      "It could not complete this check. Try again in a moment. If it keeps happening, contact your administrator and give them the reference below.",
    );
    expect(panel).not.toHaveTextContent(/not responding/);
    expect(within(panel).getByText(/Reference:/)).toHaveTextContent(
      "Reference: req-server-a",
    );
    expect(panel).not.toHaveTextContent("500");

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("heading", { name: view.verdict }),
    ).toBeVisible();
    expect(requested).toHaveLength(2);
  });

  it.each([
    [
      "proxy cannot reach the service",
      502,
      "BAD_GATEWAY" as const,
      "VICS could not get an answer from the vehicle service. Try again in a moment. If it keeps happening, contact your administrator and give them the reference below.",
    ],
    [
      "proxy timed out",
      504,
      "GATEWAY_TIMEOUT" as const,
      "The vehicle service took too long to answer. Try again in a moment.",
    ],
  ])("%s: not responding, with Try again", async (_, status, code, words) => {
    view.serve(() => json(problemFixture(code, status), status));
    renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel("The vehicle service is not responding");
    // The title is said once: the message goes on from it rather than repeating it.
    expect(panel.querySelector(".error-panel__message")?.textContent).toBe(
      words,
    );
    expect(panel).not.toHaveTextContent(String(status));
    expect(
      within(panel).getByRole("button", { name: "Try again" }),
    ).toBeVisible();
  });

  it("network failure: not responding, check the connection, Try again", async () => {
    const requested = view.serve((registration, attempt) =>
      attempt === 1 ? HttpResponse.error() : view.answer(registration),
    );
    const { user } = renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel("The vehicle service is not responding");
    expect(panel.querySelector(".error-panel__message")?.textContent).toBe(
      "VICS could not connect to the vehicle service. Check your network connection, then try again.",
    );
    expect(within(panel).queryByText(/Reference:/)).not.toBeInTheDocument();

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    expect(
      await screen.findByRole("heading", { name: view.verdict }),
    ).toBeVisible();
    expect(requested).toHaveLength(2);
  });

  it("401: tells staff to contact their administrator", async () => {
    view.serve(() =>
      json(problemFixture("UNAUTHORIZED", 401, "req-auth-a"), 401),
    );
    renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel(
      "VICS cannot connect to the vehicle service",
    );
    expect(within(panel).getByRole("alert")).toHaveTextContent(
      /Contact your administrator/,
    );
    expect(within(panel).getByText("req-auth-a")).toBeVisible();
    expect(panel).not.toHaveTextContent(/401|Unauthorized/);
  });

  it("an answer that breaks the contract: words and Try again", async () => {
    view.serve(() => json(view.unreadable));
    renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel(
      "The vehicle service sent an answer VICS could not read",
    );
    expect(
      within(panel).getByRole("button", { name: "Try again" }),
    ).toBeVisible();
  });
});

describe.each(CHECK_VIEWS)("$name check: focus", (view) => {
  it("a 'Did you mean' link goes with the error: focus moves to the new answer, not the page top", async () => {
    view.serve((registration) =>
      registration === "AO1"
        ? json(
            problemFixture("VEHICLE_NOT_FOUND", 404, undefined, {
              suggestions: ["A01"],
            }),
            404,
          )
        : view.answer(registration),
    );
    const { user } = renderRoute(view.path("AO1"));
    const panel = await errorPanel("No vehicle found");
    within(panel).getByRole("link", { name: "A 01" }).focus();
    await user.keyboard("{Enter}");
    const verdict = await screen.findByRole("heading", { name: view.verdict });
    await waitFor(() => expect(verdict).toHaveFocus());
  });

  it("Try again goes with the error: focus moves to the answer", async () => {
    view.serve((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("INTERNAL", 500), 500)
        : view.answer(registration),
    );
    const { user } = renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel("The vehicle service had a problem");
    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    const verdict = await screen.findByRole("heading", { name: view.verdict });
    await waitFor(() => expect(verdict).toHaveFocus());
  });

  it("a page opened at a result leaves focus where the browser put it", async () => {
    view.serve((registration) => view.answer(registration));
    renderRoute(view.path("AB12CDE"));
    await screen.findByRole("heading", { name: view.verdict });
    expect(document.body).toHaveFocus();
  });
});
