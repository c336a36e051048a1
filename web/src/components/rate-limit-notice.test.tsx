// A rate-limited check, in both views: the wait counts down, then the check is made again by itself.
import { describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import { json } from "../testing/api-handlers.ts";
import { CHECK_VIEWS } from "../testing/check-views.ts";
import { problemFixture, rateLimitHeaders } from "../testing/fixtures.ts";
import { renderRoute } from "../testing/render-route.tsx";

async function errorPanel(): Promise<HTMLElement> {
  const heading = await screen.findByRole("heading", {
    name: "Too many checks",
  });
  return heading.closest("section") as HTMLElement;
}

describe.each(CHECK_VIEWS)("$name check, rate limited", (view) => {
  it("counts down from Retry-After every second, then retries by itself", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requested = view.serve((registration, attempt) =>
      attempt === 1
        ? json(problemFixture("RATE_LIMITED", 429, "req-limit-1"), 429, {
            ...rateLimitHeaders(0, 120, 30),
            "Retry-After": "30",
          })
        : view.answer(registration),
    );
    renderRoute(view.path("AB12CDE"));

    const panel = await errorPanel();
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 30 seconds.",
    );
    expect(within(panel).queryByText(/Reference:/)).not.toBeInTheDocument();
    expect(panel).not.toHaveTextContent("429");

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 29 seconds.",
    );
    await act(() => vi.advanceTimersByTimeAsync(28_000));
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 1 second.",
    );
    expect(requested).toHaveLength(1);

    await act(() => vi.advanceTimersByTimeAsync(1000));
    expect(
      await screen.findByRole("heading", { name: view.verdict }),
    ).toBeVisible();
    expect(requested).toEqual(["AB12CDE", "AB12CDE"]);
  });

  it("falls back to X-RateLimit-Reset when Retry-After is missing", async () => {
    view.serve(() =>
      json(
        problemFixture("RATE_LIMITED", 429),
        429,
        rateLimitHeaders(0, 10, 17),
      ),
    );
    renderRoute(view.path("AB12CDE"));
    const panel = await errorPanel();
    expect(within(panel).getByRole("timer")).toHaveTextContent(
      "Trying again in 17 seconds.",
    );
  });

  it("the automatic retry can be cancelled, leaving a manual one", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const requested = view.serve(() =>
      json(problemFixture("RATE_LIMITED", 429), 429, { "Retry-After": "5" }),
    );
    const { user } = renderRoute(view.path("AB12CDE"), { fakeTimers: true });
    const panel = await errorPanel();

    await user.click(
      within(panel).getByRole("button", { name: "Cancel automatic retry" }),
    );
    expect(within(panel).queryByRole("timer")).not.toBeInTheDocument();
    expect(within(panel).getByText("Automatic retry cancelled.")).toBeVisible();
    await act(() => vi.advanceTimersByTimeAsync(10_000));
    expect(requested).toHaveLength(1);

    await user.click(within(panel).getByRole("button", { name: "Try again" }));
    await vi.waitFor(() => expect(requested).toHaveLength(2));
    // The button went while it tried again; a new 429 puts focus on its heading, not the page top.
    const again = await errorPanel();
    await vi.waitFor(() =>
      expect(
        within(again).getByRole("heading", { name: "Too many checks" }),
      ).toHaveFocus(),
    );
  });
});
