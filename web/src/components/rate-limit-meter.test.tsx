import { describe, expect, it, vi } from "vitest";
import { act, screen, within } from "@testing-library/react";
import {
  insuranceFixture,
  ownLimitHeaders,
  problemFixture,
  rateLimitHeaders,
} from "../testing/fixtures.ts";
import { json, serveInsurance } from "../testing/api-handlers.ts";
import { renderRoute } from "../testing/render-route.tsx";
import { recordRateLimit } from "../lib/rate-limit-store.ts";

/** The app as a reload starts it: fresh modules, with only what the tab kept in its storage. */
async function renderAfterReload(url: string) {
  vi.resetModules();
  const fresh = await import("../testing/render-route.tsx");
  return fresh.renderRoute(url);
}

const banner = () => screen.getByRole("banner");
/** The meter's live region: silent except when checks run out or come back. */
const spoken = () => within(banner()).getByRole("status");

describe("rate-limit meter", () => {
  it("holds its place from the first paint, saying when it will know", () => {
    renderRoute("/");
    expect(
      within(banner()).getByText("Your checks left this minute: not read yet"),
    ).toBeVisible();
    expect(
      within(banner()).getByText("Shown after your first check"),
    ).toBeVisible();
    expect(within(banner()).queryByRole("meter")).not.toBeInTheDocument();
    expect(spoken()).toHaveTextContent("");
  });

  it("shows the last reading after a reload, with when it was read and when it renews", async () => {
    const readAt = new Date(Date.now() - 15_000);
    recordRateLimit(
      { limit: 1200, remaining: 1147, resetSeconds: 40 },
      readAt.getTime(),
    );
    await renderAfterReload("/");
    expect(
      within(banner()).getByText(
        "Your checks left this minute: 1,147 of 1,200",
      ),
    ).toBeVisible();
    const time = readAt.toLocaleTimeString("en-GB", {
      hour: "2-digit",
      minute: "2-digit",
      timeZone: "Europe/London",
    });
    expect(
      within(banner()).getByText(
        new RegExp(`^As of ${time}; renews in 2[45] seconds$`),
      ),
    ).toBeVisible();
    expect(within(banner()).getByRole("meter")).toHaveAttribute(
      "value",
      "1147",
    );
  });

  it("after a reload, does not show a reading whose minute has passed as current", async () => {
    const readAt = new Date(Date.now() - 5 * 60_000);
    recordRateLimit(
      { limit: 1200, remaining: 3, resetSeconds: 40 },
      readAt.getTime(),
    );
    await renderAfterReload("/");
    expect(
      within(banner()).getByText("Up to 1,200 of your checks left this minute"),
    ).toBeVisible();
    expect(within(banner()).queryByText(/\b3 of/)).not.toBeInTheDocument();
    expect(within(banner()).getByRole("meter")).toHaveAttribute(
      "value",
      "1200",
    );
  });

  it("shows the latest reading of the person's own budget after every response, without reading it out", async () => {
    serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(insuranceFixture({ registration }), 200, ownLimitHeaders(118))
        : json(
            problemFixture("VEHICLE_NOT_FOUND", 404),
            404,
            ownLimitHeaders(117, 120, 30),
          ),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");

    const words = await within(banner()).findByText(
      "Your checks left this minute: 118 of 120",
    );
    // Not a live region: a screen reader is not told the count after every check.
    expect(words.closest("[role=status], [aria-live]")).toBeNull();
    const meter = within(banner()).getByRole("meter", {
      name: "Your checks left this minute",
    });
    expect(meter).toHaveAttribute("value", "118");
    expect(meter).toHaveAttribute("max", "120");

    await user.type(
      screen.getByRole("textbox", { name: "Registration number" }),
      "{Control>}a{/Control}XY12ZZZ",
    );
    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    expect(
      await within(banner()).findByText(
        "Your checks left this minute: 117 of 120",
      ),
    ).toBeVisible();
    expect(spoken()).toHaveTextContent("");
  });

  it("says in words when checks are running low or used up, and announces the limit reached", async () => {
    serveInsurance((registration, attempt) =>
      attempt === 1
        ? json(insuranceFixture({ registration }), 200, ownLimitHeaders(1, 10))
        : json(problemFixture("RATE_LIMITED", 429), 429, {
            ...ownLimitHeaders(0, 10),
            "Retry-After": "40",
          }),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");
    expect(
      await within(banner()).findByText(
        "Only 1 of your 10 checks left this minute",
      ),
    ).toBeVisible();
    expect(
      within(banner()).getByText(/^Back to 10 in 4[12] seconds$/),
    ).toBeVisible();
    expect(spoken()).toHaveTextContent("");

    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    expect(
      await within(banner()).findByText("You have no checks left this minute"),
    ).toBeVisible();
    expect(
      within(banner()).getByText(/^You can check again in 4[12] seconds$/),
    ).toBeVisible();
    expect(spoken()).toHaveTextContent(
      /^You have no checks left this minute. You can check again in 4[12] seconds.$/,
    );
  });

  it("stops saying no checks are left once the window has reset, and announces it", async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    serveInsurance((registration) =>
      json(insuranceFixture({ registration }), 200, ownLimitHeaders(0, 10, 3)),
    );
    renderRoute("/vehicle/AB12CDE");
    expect(
      await within(banner()).findByText("You have no checks left this minute"),
    ).toBeVisible();
    expect(spoken()).toHaveTextContent(/^You have no checks left this minute/);

    await act(() => vi.advanceTimersByTimeAsync(4000));
    expect(
      within(banner()).getByText("Up to 10 of your checks left this minute"),
    ).toBeVisible();
    expect(within(banner()).getByRole("meter")).toHaveAttribute("value", "10");
    expect(spoken()).toHaveTextContent("Your checks are available again.");
  });

  it("shows one budget, the person's own in checks, whatever X-RateLimit-* say (issue 34)", async () => {
    serveInsurance((registration, attempt) =>
      attempt === 1
        ? // A fleet chunk's reading is in requests like it ("49 of 51"); the meter ignores it.
          json(insuranceFixture({ registration }), 200, {
            ...rateLimitHeaders(49, 51),
            ...ownLimitHeaders(48_027, 50_000),
          })
        : // The sandbox's ER19THR: the key's reading says none left, the person's own has room.
          json(problemFixture("RATE_LIMITED", 429), 429, {
            ...rateLimitHeaders(0, 100_000),
            ...ownLimitHeaders(48_026, 50_000),
            "Retry-After": "40",
          }),
    );
    const { user } = renderRoute("/vehicle/AB12CDE");
    expect(
      await within(banner()).findByText(
        "Your checks left this minute: 48,027 of 50,000",
      ),
    ).toBeVisible();

    await user.click(screen.getByRole("button", { name: "Check insurance" }));
    expect(
      await within(banner()).findByText(
        "Your checks left this minute: 48,026 of 50,000",
      ),
    ).toBeVisible();
    expect(within(banner()).queryByText(/no checks left/)).toBeNull();
    expect(spoken()).toHaveTextContent("");
  });

  it("is not moved by an answer without the person's budget (a sign-in throttle's X-RateLimit-*)", async () => {
    serveInsurance((registration) =>
      json(insuranceFixture({ registration }), 200, rateLimitHeaders(3, 10)),
    );
    renderRoute("/vehicle/AB12CDE");
    // The answer is on the page: its headers have been read.
    expect(
      (
        await screen.findAllByText(/Northwind Mutual/, {}, { timeout: 10_000 })
      )[0],
    ).toBeVisible();
    expect(
      within(banner()).getByText("Your checks left this minute: not read yet"),
    ).toBeVisible();
  });
});
